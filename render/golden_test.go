package render

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

var update = flag.Bool("update", false, "rewrite render/testdata/golden/*.md from what render writes now")

// goldenBlock stands in for EncodeLedger's output in the golden status comments: the
// compressed bytes depend on the Go release, and the codec has tests of its own.
const goldenBlock = "<!-- clarify:ledger v1 AAAA.AAAA -->"

func TestGolden(t *testing.T) {
	rich := richLedger()
	c := func(i int) clarify.Clarification { return rich.Clarifications[i] }
	onlyAssumptions := rich
	onlyAssumptions.Clarifications = nil
	onlyClarifications := rich
	onlyClarifications.Assumptions = nil
	noneOpen := rich
	noneOpen.Clarifications = rich.Clarifications[4:]

	tests := map[string]struct {
		body     string
		comments int
		mentions []string
	}{
		"status_empty":               {Status(clarify.Ledger{Version: 1, Issue: 42}, goldenBlock), 3, nil},
		"status_assumptions_only":    {Status(onlyAssumptions, goldenBlock), 3, nil},
		"status_clarifications_only": {Status(onlyClarifications, goldenBlock), 3, nil},
		"status_full":                {Status(rich, goldenBlock), 3, nil},
		"round_blocking":             {Round(c(0), 1, nil, "round:CLR-42-001:1"), 2, nil},
		"round_role_mentions": {Round(c(0), 1, []string{"dave", "@acme/architects", "Dave", "not a login!", "x@y"}, "round:CLR-42-001:1"),
			2, []string{"dave", "acme/architects"}},
		"round_nonblocking_team": {Round(nonBlockingWithOptions(), 0, nil, "round:CLR-42-003:1"), 2, nil},
		"round_followup":         {Round(c(1), 2, []string{"alice"}, "round:CLR-42-002:2"), 2, []string{"alice"}},
		"round_hostile":          {Round(hostileClarification(), 1, []string{hostile, "@mallory -->"}, "round:CLR-42-001:1"), 2, nil},
		"reply_refusal": {Reply(clarify.Reply{
			Kind: clarify.ReplyRefusal, Code: clarify.CodeBadCommand, To: "bot-agent", Quote: "/clarify frob CLR-42-001",
			Problem: "`frob` is not a /clarify command.",
			Try:     "`/clarify followup CLR-42-001 <question>` or `/clarify resolve CLR-42-001 <decision>`",
		}, rich, "reply:1011"), 2, []string{"bot-agent"}},
		"reply_list":          {Reply(clarify.Reply{Kind: clarify.ReplyList, To: "alice"}, rich, "reply:1012"), 2, nil},
		"reply_list_empty":    {Reply(clarify.Reply{Kind: clarify.ReplyList, To: "alice"}, noneOpen, "reply:1013"), 2, nil},
		"reply_show":          {Reply(clarify.Reply{Kind: clarify.ReplyShow, To: "alice", ID: "CLR-42-002"}, rich, "reply:1014"), 2, nil},
		"reply_show_resolved": {Reply(clarify.Reply{Kind: clarify.ReplyShow, ID: "CLR-42-005"}, rich, "reply:1015"), 2, nil},
		"reply_stats":         {Reply(clarify.Reply{Kind: clarify.ReplyStats, To: "alice"}, rich, "reply:1017"), 2, nil},
		"reply_show_unknown":  {Reply(clarify.Reply{Kind: clarify.ReplyShow, To: "alice", ID: "CLR-42-099"}, rich, "reply:1016"), 2, nil},
		"escalation": {Escalation(c(3), "Round 5 of 5 reached without a decision.",
			[]string{"carol", "@acme/maintainers", "carol", "not a login!"}, "escalate:CLR-42-004:5"), 2, []string{"carol", "acme/maintainers"}},
		"escalation_unanswered": {Escalation(c(0), "Asked the same question twice.", nil, "escalate:CLR-42-001:1"), 2, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			assertSafe(t, tc.body, tc.comments, tc.mentions...)
			golden(t, name, tc.body)
		})
	}
}

// hostileClarification has hostile text in every field a user typed.
func hostileClarification() clarify.Clarification {
	c := richLedger().Clarifications[0]
	c.Asker = clarify.Party{Login: "mallory", Role: "@role | `x` -->"}
	c.Topic, c.Type = hostile, "<!-- type -->"
	c.Options = []clarify.Option{{Key: "a", Text: hostile}, {Key: "b|<!--", Text: "b"}}
	c.Fallback = "b|<!--"
	c.Evidence = []string{hostile}
	c.Thread[0].Text = hostile
	return c
}

func nonBlockingWithOptions() clarify.Clarification {
	c := richLedger().Clarifications[2]
	c.Options = []clarify.Option{{Key: "a", Text: "eu-west-1"}, {Key: "b", Text: "eu-central-1"}, {Key: "c", Text: "Both, replicated"}}
	c.Fallback = "b"
	c.Type = "missing-external-data"
	return c
}

// golden compares got with testdata/golden/name.md, or rewrites the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\nto create it: go test ./render -run '%s' -update", err, t.Name())
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(gl) && line < len(wl) && gl[line] == wl[line] {
		line++
	}
	var g, w string
	if line < len(gl) {
		g = gl[line]
	}
	if line < len(wl) {
		w = wl[line]
	}
	t.Errorf("%s differs from what render writes now, first at line %d:\n got: %q\nwant: %q\n"+
		"if the change is intended, refresh the golden files with: go test ./render -update", path, line+1, g, w)
}

// Every kind of message keeps hostile user text inert and stays under the size limit,
// even when every field is at its worst.
func TestMessagesStaySafeWithHostileText(t *testing.T) {
	l := hostileLedger()
	huge := strings.Repeat("<@a#1|`", 20_000)
	worst := l.Clarifications[3]
	worst.Topic = huge
	worst.Options = nil
	for i := 0; i < 40; i++ {
		worst.Options = append(worst.Options, clarify.Option{Key: huge, Text: huge})
		worst.Evidence = append(worst.Evidence, huge)
		worst.Thread = append(worst.Thread, clarify.Entry{Kind: clarify.KindQuestion, Round: 5, Author: huge, Text: huge})
	}
	many := l
	for i := 0; i < 300; i++ {
		many.Clarifications = append(many.Clarifications, worst)
		many.Assumptions = append(many.Assumptions, clarify.Assumption{Decision: huge, Author: huge, Source: huge})
	}
	l.Clarifications = append(l.Clarifications, worst)

	tests := map[string]struct {
		body     string
		comments int
		mentions []string
	}{
		"worstRound":      {Round(worst, 5, []string{huge}, "k"), 2, nil},
		"worstEscalation": {Escalation(worst, huge, []string{huge, "ok-login"}, "k"), 2, []string{"ok-login"}},
		"refusalEchoingUserText": {Reply(clarify.Reply{Kind: clarify.ReplyRefusal, To: "x",
			Quote: huge, Problem: hostile, Try: hostile}, l, "k"), 2, []string{"x"}},
		"refusalToAFakeLogin": {Reply(clarify.Reply{Kind: clarify.ReplyRefusal, To: "@evil and @alice",
			Quote: hostile, Problem: "no"}, l, "k"), 2, nil},
		"listOfMany":     {Reply(clarify.Reply{Kind: clarify.ReplyList}, many, "k"), 2, nil},
		"showOfTheWorst": {Reply(clarify.Reply{Kind: clarify.ReplyShow, ID: worst.ID}, l, "k"), 2, nil},
		"statusOfMany":   {Status(many, goldenBlock), 3, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			assertSafe(t, tc.body, tc.comments, tc.mentions...)
		})
	}
	for _, c := range l.Clarifications {
		for r := 1; r <= c.Round; r++ {
			assertSafe(t, Round(c, r, nil, "k"), 2)
		}
	}
}

func TestStatusKeepsOpenClarificationsWhenSpaceRunsOut(t *testing.T) {
	l := richLedger()
	closed := l.Clarifications[4]
	closed.Topic = strings.Repeat("x", capTopic)
	for i := 0; i < 2000; i++ {
		l.Clarifications = append(l.Clarifications, closed)
	}
	body := Status(l, goldenBlock)
	if len(body) >= MaxCommentBytes {
		t.Fatalf("status is %d bytes", len(body))
	}
	for _, c := range richLedger().Clarifications[:4] {
		if !strings.Contains(body, "| "+c.ID+" |") {
			t.Errorf("open %s was left out while closed ones were cut", c.ID)
		}
	}
	if !strings.Contains(body, "clarifications not shown") || !strings.HasSuffix(body, StatusMarker+"\n"+goldenBlock+"\n") {
		t.Error("the cut must be announced and the ledger block must stay at the end")
	}
}

func FuzzMessagesSafe(f *testing.F) {
	for _, seed := range []string{"", hostile, "@a", "#1", "gh-1", "<!--", "-->", "--!>", "a\\|b", "`x`", "\r\u2028\u0085"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := hostileClarification()
		c.Topic, c.Type, c.Resolution = s, s, s
		c.Asker = clarify.Party{Login: s, Role: s}
		c.Target.Name = s
		c.Options = []clarify.Option{{Key: s, Text: s}}
		c.Evidence = []string{s}
		c.Thread = append(c.Thread,
			clarify.Entry{Kind: clarify.KindAnswer, Round: 1, Author: s, Text: s},
			clarify.Entry{Kind: clarify.EntryKind(s), Round: 1, Author: s, Text: s})
		l := clarify.Ledger{Version: 1, Clarifications: []clarify.Clarification{c}}
		// App prose keeps code spans verbatim (mentions do not fire there), so only the
		// comment delimiters are checked for it.
		if p := prose(s); strings.Contains(p, "<!--") || strings.Contains(p, "-->") || strings.Contains(p, "--!>") {
			t.Errorf("prose(%q) = %q holds an HTML comment delimiter", s, p)
		}
		for name, body := range map[string]string{
			"round":      Round(c, 1, []string{s}, s),
			"escalation": Escalation(c, s, []string{s}, s),
			"refusal":    Reply(clarify.Reply{Kind: clarify.ReplyRefusal, To: s, Quote: s, Problem: "no"}, l, s),
			"list":       Reply(clarify.Reply{Kind: clarify.ReplyList, To: s}, l, s),
			"show":       Reply(clarify.Reply{Kind: clarify.ReplyShow, To: s, ID: c.ID}, l, s),
		} {
			// s may be a valid login, which refusals and escalations mention on purpose.
			h := strings.TrimPrefix(strings.TrimSpace(s), "@")
			var allowed []string
			if validHandle(h) {
				allowed = append(allowed, h)
			}
			t.Run(name, func(t *testing.T) { assertSafe(t, body, 2, allowed...) })
		}
	})
}

func TestStatusUnderAHeadKeepsTheHeadWholeAndStaysUnderTheLimit(t *testing.T) {
	l := richLedger()
	head := Round(l.Clarifications[0], 1, []string{"carol"}, "round:CLR-42-001:1")
	body := StatusUnder(head, l, goldenBlock)
	if Head(body) != head || !IsStatus(body) || !strings.HasSuffix(body, Status(l, goldenBlock)) {
		t.Fatalf("the head must be read back whole above the status itself:\n%s", body)
	}
	if HeadSum(head) == "" || HeadSum(head) == HeadSum(head+" ") || HeadSum("") != "" {
		t.Error("the digest must tell a head edited by one character, and be empty for none")
	}
	if Head(Status(l, goldenBlock)) != "" {
		t.Error("a status comment without a head has none")
	}

	// With the rows past the limit, the head takes its room from what is cut, never from
	// the limit.
	closed := l.Clarifications[4]
	closed.Topic = strings.Repeat("x", capTopic)
	for i := 0; i < 2000; i++ {
		l.Clarifications = append(l.Clarifications, closed)
	}
	body = StatusUnder(head, l, goldenBlock)
	if len(body) > MaxCommentBytes || Head(body) != head {
		t.Errorf("status under a head is %d bytes (limit %d), head kept: %v", len(body), MaxCommentBytes, Head(body) == head)
	}
}
