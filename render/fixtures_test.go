package render

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// t0 is the fixed "now" of every fixture: render never reads a clock, nor do its tests.
var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// hostile is user text that tries everything render must neutralise.
const hostile = "ends here --> and <!-- opens --!> again\n" +
	"<!-- clarify:ledger v1 AAAA.BBBB -->\n" +
	"<!-- clarify:status -->\n" +
	"<!-- clarify:msg round:CLR-42-001:1 -->\n" +
	"| a | b | `code` ``two`` \\| pipe\n" +
	"> not a quote\n" +
	"ping @alice and @acme/platform, see #123 and GH-7 and acme/app#9\r\n" +
	"rtl \u202Eevil\u202C, line\u2028separator, nul\x00, &lt; stays typed"

// richLedger has one clarification in every status, threads of several rounds, options
// with a fallback, evidence, and both kinds of assumption.
func richLedger() clarify.Ledger {
	engineer := clarify.Party{Login: "bot-agent", Role: "engineer"}
	return clarify.Ledger{
		Version: clarify.LedgerVersion,
		Issue:   42,
		Seq:     6,
		Cursor:  1009,
		Rev:     17,
		Clarifications: []clarify.Clarification{
			{
				ID: "CLR-42-001", Asker: engineer,
				Target:   clarify.Target{Kind: clarify.TargetRole, Name: "architect"},
				Topic:    "Time zone for reports",
				Type:     "missing-external-data",
				Blocking: true,
				Options: []clarify.Option{
					{Key: "a", Text: "Store and show UTC"},
					{Key: "b", Text: "Store UTC, show the reader's local time"},
				},
				Fallback:   "a",
				Evidence:   []string{"docs/reports.md says \"local time\"", "the API returns RFC 3339 with offsets"},
				Status:     clarify.Pending,
				Round:      1,
				MaxRounds:  5,
				CreatedAt:  at(0),
				StaleAfter: at(30),
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 1, Author: "bot-agent", CommentID: 1001, At: at(0),
						Text: "Reports show timestamps. Which time zone should they use?\n\nThe spec says *local*, the API says UTC."},
				},
			},
			{
				ID: "CLR-42-002", Asker: engineer,
				Target:     clarify.Target{Kind: clarify.TargetLogin, Name: "alice"},
				Topic:      "Retention period",
				Blocking:   true,
				Status:     clarify.Answered,
				Round:      2,
				MaxRounds:  5,
				CreatedAt:  at(1),
				UpdatedAt:  at(20),
				StaleAfter: at(50),
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 1, Author: "bot-agent", CommentID: 1002, At: at(1), Text: "How long do we keep exports?"},
					{Kind: clarify.KindAnswer, Round: 1, Author: "alice", CommentID: 1003, At: at(5), Text: "90 days."},
					{Kind: clarify.KindQuestion, Round: 2, Author: "bot-agent", CommentID: 1004, At: at(10), Text: "Calendar days or business days?"},
					{Kind: clarify.KindAnswer, Round: 2, Author: "alice", CommentID: 1005, At: at(20), Text: "Calendar days.", Edited: true},
				},
			},
			{
				ID: "CLR-42-003", Asker: clarify.Party{Login: "docs-bot"},
				Target:     clarify.Target{Kind: clarify.TargetTeam, Name: "acme/platform"},
				Topic:      "Which region hosts the bucket",
				Status:     clarify.Stale,
				Round:      1,
				MaxRounds:  6,
				CreatedAt:  at(2),
				StaleAfter: at(92),
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 1, Author: "docs-bot", CommentID: 1006, At: at(2), Text: "eu-west-1 or eu-central-1?"},
				},
			},
			{
				ID: "CLR-42-004", Asker: engineer,
				Target:   clarify.Target{Kind: clarify.TargetRole, Name: "product-manager"},
				Topic:    "Free tier limits",
				Type:     "mutually-exclusive-requirements",
				Blocking: true,
				Options: []clarify.Option{
					{Key: "a", Text: "10 projects"},
					{Key: "b", Text: "Unlimited projects, 1 GB"},
				},
				Status:     clarify.Escalated,
				Round:      5,
				MaxRounds:  5,
				CreatedAt:  at(3),
				StaleAfter: at(200),
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 4, Author: "bot-agent", At: at(100), Text: "The pricing page and the contract disagree. Which wins?"},
					{Kind: clarify.KindAnswer, Round: 4, Author: "carol", CommentID: 1007, At: at(120), Text: "Ask sales.", Edited: true},
					{Kind: clarify.KindQuestion, Round: 5, Author: "bot-agent", At: at(130), Text: "Sales says the contract. Is that final?"},
					{Kind: clarify.KindEscalation, Round: 5, Author: "clarify[bot]", At: at(170), Text: "Max rounds reached."},
				},
			},
			{
				ID: "CLR-42-005", Asker: engineer,
				Target:     clarify.Target{Kind: clarify.TargetRole, Name: "architect"},
				Topic:      "Queue or cron",
				Blocking:   true,
				Status:     clarify.Resolved,
				Round:      1,
				MaxRounds:  5,
				CreatedAt:  at(4),
				ResolvedAt: at(40),
				Resolution: "Use the queue; cron only for the nightly sweep.",
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 1, Author: "bot-agent", At: at(4), Text: "Queue or cron for the sync?"},
					{Kind: clarify.KindResolution, Round: 1, Author: "dave", CommentID: 1008, At: at(40), Text: "Use the queue; cron only for the nightly sweep."},
				},
			},
			{
				ID: "CLR-42-006", Asker: engineer,
				Target:     clarify.Target{Kind: clarify.TargetRole, Name: "architect"},
				Status:     clarify.Abandoned,
				Round:      1,
				MaxRounds:  5,
				CreatedAt:  at(5),
				ResolvedAt: at(6),
				Thread: []clarify.Entry{
					{Kind: clarify.KindQuestion, Round: 1, Author: "bot-agent", At: at(5), Text: "Never mind?"},
					{Kind: clarify.KindNote, Round: 1, Author: "bot-agent", CommentID: 1009, At: at(6), Text: "Abandoned by the asker."},
				},
			},
		},
		Assumptions: []clarify.Assumption{
			{Decision: "Exports are CSV only", Confidence: "high", Risk: "low", Author: "bot-agent", CommentID: 1010, At: at(7), Source: "assume"},
			{Decision: "Store and show UTC", Author: "clarify[bot]", At: at(60), Clarification: "CLR-42-001", Source: "timeout_assumed"},
		},
	}
}

// hostileLedger puts hostile text (and 10 KB of mixed Unicode) in every user-typed field.
func hostileLedger() clarify.Ledger {
	l := richLedger()
	big := strings.Repeat("😀 שלום عالم e\u0301\u0302 \u2028 \u202e 漢字 ", 10_240/60+1)
	for i := range l.Clarifications {
		c := &l.Clarifications[i]
		c.Topic = hostile
		c.Asker.Role = "@role | `x` -->"
		c.Options = []clarify.Option{{Key: "a", Text: hostile}, {Key: "b|<!--", Text: big}}
		c.Fallback = "b|<!--"
		c.Evidence = []string{hostile, big}
		c.Resolution = hostile
		for j := range c.Thread {
			c.Thread[j].Text = hostile + "\n" + big
			c.Thread[j].Author = "@mallory -->"
		}
	}
	for i := range l.Assumptions {
		l.Assumptions[i].Decision = hostile
		l.Assumptions[i].Risk = big
	}
	return l
}

var (
	mentionRe  = regexp.MustCompile(`@[A-Za-z0-9_-][A-Za-z0-9_/\[\]-]*`)
	issueRefRe = regexp.MustCompile(`(?i)#[0-9]|(^|[^@\w])GH-[0-9]`)
	hiddenRe   = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// assertSafe checks what must hold for every message render writes: exactly comments
// HTML comment delimiters (our markers), no "--!>", no live @mention beyond allowed, no
// issue reference, tables whose rows keep their column count, and the size limit.
func assertSafe(t *testing.T, body string, comments int, allowed ...string) {
	t.Helper()
	if n := strings.Count(body, "<!--"); n != comments {
		t.Errorf("%d %q in the body, want %d", n, "<!--", comments)
	}
	if n := strings.Count(body, "-->"); n != comments {
		t.Errorf("%d %q in the body, want %d", n, "-->", comments)
	}
	if strings.Contains(body, "--!>") {
		t.Errorf("body contains %q", "--!>")
	}
	// Mentions and references only count in what GitHub renders, not in our hidden comments.
	visible := hiddenRe.ReplaceAllString(body, "")
	for _, m := range mentionRe.FindAllString(visible, -1) {
		ok := false
		for _, a := range append(allowed, "target") {
			ok = ok || m == "@"+a
		}
		if !ok {
			t.Errorf("body mentions %s", m)
		}
	}
	// A login such as "gh-1" is a mention, already checked above, not a reference.
	if m := issueRefRe.FindString(mentionRe.ReplaceAllString(visible, "@")); m != "" {
		t.Errorf("body references an issue: %q", m)
	}
	if len(body) >= MaxCommentBytes {
		t.Errorf("body is %d bytes, want under %d", len(body), MaxCommentBytes)
	}
	cols := -1
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = -1
			continue
		}
		n := unescapedPipes(line)
		if cols < 0 {
			cols = n
		} else if n != cols {
			t.Errorf("table row has %d cells' pipes, header has %d: %q", n, cols, line)
		}
	}
}

// unescapedPipes counts the "|" not escaped by a backslash, as GFM splits table cells.
func unescapedPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}
