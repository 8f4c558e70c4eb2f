package handlers_test

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Helpers for an issue other than #42 of octo/widgets.

// commentOn has author comment on issue n and delivers it; it insists on a 200.
func (w *driver) commentOn(n int, author, body string) int64 {
	w.t.Helper()
	d, id := w.h.Fake.Comment(repo, n, author, body)
	if st := w.send(d); st != http.StatusOK {
		w.t.Fatalf("delivery of %s's comment on #%d answered %d, want 200", author, n, st)
	}
	return id
}

// keyOf is the key the ledger of issue n of octo/widgets is signed with.
func keyOf(w *driver, n int) []byte {
	return ledger.IssueLedgerKey(w.h.Config.LedgerKeyBytes(), "octo", "widgets", n)
}

// ledgerOn reads issue n's ledger from its one status comment.
func (w *driver) ledgerOn(n int) clarify.Ledger {
	w.t.Helper()
	var found []fakegithub.Comment
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User == w.h.Fake.BotLogin() && render.IsStatus(c.Body) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("#%d: want exactly one status comment, found %d", n, len(found))
	}
	l, err := render.DecodeLedger(found[0].Body, keyOf(w, n))
	if err != nil {
		w.t.Fatalf("#%d: %v", n, err)
	}
	return l
}

// fullLedgerOn is ledgerOn with the clarifications of every archive the ledger lists.
func (w *driver) fullLedgerOn(n int) clarify.Ledger {
	w.t.Helper()
	l := w.ledgerOn(n)
	byID := map[int64]string{}
	for _, c := range w.h.Fake.Comments(repo, n) {
		byID[c.ID] = c.Body
	}
	for _, id := range l.Archives {
		a, err := render.DecodeArchive(byID[id], keyOf(w, n))
		if err != nil {
			w.t.Fatalf("#%d: archive %d: %v", n, id, err)
		}
		l.Clarifications = append(l.Clarifications, a.Clarifications...)
	}
	return l
}

// botCommentsOn counts the app's comments on issue n that contain the text.
func (w *driver) botCommentsOn(n int, contains string) int {
	k := 0
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User == w.h.Fake.BotLogin() && strings.Contains(c.Body, contains) {
			k++
		}
	}
	return k
}

func (w *driver) labelsOn(n int) string { return strings.Join(w.h.Fake.IssueLabels(repo, n), ",") }

// roundMarker finds the clarification id in a round comment's hidden marker.
var roundMarker = regexp.MustCompile(`<!-- clarify:msg round:(CLR-\d+-\d+):\d+ (?:v2 )?[^ ]+ -->`)

// roundIDs lists the clarification ids of the app's round comments on issue n, one per comment.
func (w *driver) roundIDs(n int) []string {
	var ids []string
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User != w.h.Fake.BotLogin() {
			continue
		}
		if m := roundMarker.FindStringSubmatch(c.Body); m != nil {
			ids = append(ids, m[1])
		}
	}
	return ids
}

// cjk returns n pseudo-random CJK ideographs: text that compresses badly and takes three
// bytes a character.
func cjk(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(rune(0x4E00 + r.Intn(0x9FA5-0x4E00)))
	}
	return b.String()
}

// noRoom is what the refusal of an ask the ledger cannot hold tells its asker to do.
const noRoom = "settle some first"

// Issue 12 item 7: a ledger too big for one comment. Seven asks of 4,000 CJK characters
// each cannot all stay open in one status comment: each ask is either taken (and then its
// round comment and the ledger agree) or refused with a comment saying what to do; never a
// round comment for a clarification the ledger lost.
func TestSevenHugeAsksAreTakenOrRefusedNeverPostedAndLost(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	r := rand.New(rand.NewSource(12))
	var questions []string
	for i := 0; i < 7; i++ {
		q := cjk(r, 4000)
		questions = append(questions, q)
		w.h.Fake.Advance(time.Minute) // GitHub's since is in whole seconds: keep comments apart
		w.comment("coder-agent", "/clarify @maria "+q)
	}
	w.wantEachTakenWholeOrRefused(questions)
	checkRoundsInLedger(w, 42)

	w.wantIssueStillWorks()
	checkRoundsInLedger(w, 42)

	w.wantOtherIssueTimesOut()
	checkRoundsInLedger(w, 42)

	w.wantGitHubTookEveryWrite(42, 50)
	w.replayAll()
}

// wantEachTakenWholeOrRefused asserts that each of the questions asked in #42 is either in
// the ledger whole or refused with a comment saying what to type, and that the ledger holds
// nothing else.
func (w *driver) wantEachTakenWholeOrRefused(questions []string) {
	t := w.t
	t.Helper()
	l := w.fullLedgerOn(42)
	taken := 0
	for _, q := range questions {
		for _, c := range l.Clarifications {
			if len(c.Thread) > 0 && c.Thread[0].Text == q {
				taken++
				break
			}
		}
	}
	refusals := w.botCommentsOn(42, noRoom)
	t.Logf("%d asks taken whole, %d refused (%d clarifications in the ledger, %d archive(s))",
		taken, refusals, len(l.Clarifications), len(l.Archives))
	if len(l.Clarifications) != taken {
		t.Errorf("%d clarifications in the ledger, but only %d hold their question whole", len(l.Clarifications), taken)
	}
	if asks := len(questions); taken+refusals != asks {
		t.Errorf("%d asks taken and %d refusal comments: %d ask(s) neither taken nor refused", taken, refusals, asks-taken-refusals)
	}
	if refusals == 0 {
		t.Logf("every ask fitted: the refusal path was not exercised")
	}
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == w.h.Fake.BotLogin() && strings.Contains(c.Body, noRoom) && !strings.Contains(c.Body, "/clarify resolve") {
			t.Errorf("refusal %d does not say what to type:\n%s", c.ID, c.Body)
		}
	}
}

// wantIssueStillWorks asserts that the full issue #42 still works: an answer, a resolve,
// then a new ask in the room it made.
func (w *driver) wantIssueStillWorks() {
	t := w.t
	t.Helper()
	w.h.Fake.Advance(time.Minute)
	w.comment("maria", "Per key.")
	if c, ok := w.fullLedgerOn(42).Find("CLR-42-001"); !ok || c.Status != clarify.Answered {
		t.Fatalf("CLR-42-001 after maria's reply: %s (found %v), want answered", c.Status, ok)
	}
	w.h.Fake.Advance(time.Minute)
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key.")
	if c, ok := w.fullLedgerOn(42).Find("CLR-42-001"); !ok || c.Status != clarify.Resolved {
		t.Fatalf("CLR-42-001 after /clarify resolve: %s (found %v), want resolved", c.Status, ok)
	}
	w.h.Fake.Advance(time.Minute)
	before := len(w.fullLedgerOn(42).Clarifications)
	w.comment("coder-agent", "/clarify @maria Which region serves Asia?")
	if got := len(w.fullLedgerOn(42).Clarifications); got != before+1 {
		t.Errorf("a short ask after a resolve was not taken: %d clarifications, want %d", got, before+1)
	}
}

// wantOtherIssueTimesOut asserts that another issue, #50, with the default 30-minute SLA
// still times out while the huge #42 is open, and that #42's CLR-42-002 does too.
func (w *driver) wantOtherIssueTimesOut() {
	t := w.t
	t.Helper()
	w.h.Fake.OpenIssue(repo, 50, "Pick a cache", "maria")
	w.commentOn(50, "coder-agent", "/clarify @maria Redis or Memcached?")
	w.h.Fake.Advance(31 * time.Minute)
	stats, err := w.h.Sweep(context.Background())
	if err != nil || stats.Failed != 0 {
		t.Errorf("sweep: %v, %d failed", err, stats.Failed)
	}
	if stats.Issues != 2 {
		t.Errorf("the sweep visited %d issues, want both #42 and #50", stats.Issues)
	}
	if c, _ := w.ledgerOn(50).Find("CLR-50-001"); c.Status != clarify.Stale {
		t.Errorf("#50's clarification is %s after the sweep, want stale", c.Status)
	}
	if n := w.botCommentsOn(50, "Still waiting"); n != 1 {
		t.Errorf("#50 got %d stale pings, want 1", n)
	}
	if !strings.Contains(w.labelsOn(50), "clarification:stale") {
		t.Errorf("#50's labels %q lack clarification:stale", w.labelsOn(50))
	}
	if c, _ := w.fullLedgerOn(42).Find("CLR-42-002"); c.Status != clarify.Stale {
		t.Errorf("#42's CLR-42-002 is %s after the sweep, want stale", c.Status)
	}
}

// wantGitHubTookEveryWrite asserts that whatever the app wrote in the issues, GitHub took:
// no comment over the limit, no 422.
func (w *driver) wantGitHubTookEveryWrite(issues ...int) {
	t := w.t
	t.Helper()
	for _, n := range issues {
		for _, c := range w.h.Fake.Comments(repo, n) {
			if c.User == w.h.Fake.BotLogin() && utf8.RuneCountInString(c.Body) > fakegithub.MaxCommentBody {
				t.Errorf("#%d: comment %d is %d characters", n, c.ID, utf8.RuneCountInString(c.Body))
			}
		}
	}
	for _, q := range w.h.Fake.Requests() {
		if q.Status == http.StatusUnprocessableEntity {
			t.Errorf("GitHub refused %s %s with 422", q.Method, q.Path)
		}
	}
}

// checkRoundsInLedger insists that every round comment on issue n names a clarification
// its ledger (archives included) holds, and that none was posted twice.
func checkRoundsInLedger(w *driver, n int) {
	w.t.Helper()
	l := w.fullLedgerOn(n)
	seen := map[string]bool{}
	for _, id := range w.roundIDs(n) {
		if _, ok := l.Find(id); !ok {
			w.t.Errorf("#%d: a round comment was posted for %s, which the ledger does not hold", n, id)
		}
		if seen[id] {
			w.t.Errorf("#%d: two round comments for %s", n, id)
		}
		seen[id] = true
	}
}

// Issue 12 item 8: pull request conversations are in scope. A clarification asked in a
// pull request's conversation is mirrored there and answered like one in an issue.
func TestAClarificationInAPullRequestIsMirroredAndAnswered(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.OpenPullRequest(repo, 7, "Add the rate limiter", "maria")
	w.commentOn(7, "coder-agent", "/clarify @maria Per key or per IP?")
	if ids := w.roundIDs(7); !slices.Equal(ids, []string{"CLR-7-001"}) {
		t.Fatalf("round comments on the pull request: %v, want [CLR-7-001]", ids)
	}
	if n := w.botCommentsOn(7, "Clarification needed · CLR-7-001"); n != 1 {
		t.Errorf("%d round comments reading \"Clarification needed · CLR-7-001\", want 1", n)
	}
	if w.labelsOn(7) != "clarification:active" {
		t.Errorf("pull request labels %q, want clarification:active", w.labelsOn(7))
	}
	w.h.Fake.Advance(time.Minute)
	reply := w.commentOn(7, "maria", "Per key.")
	if c, _ := w.ledgerOn(7).Find("CLR-7-001"); c.Status != clarify.Answered {
		t.Errorf("CLR-7-001 is %s after maria's reply, want answered", c.Status)
	}
	if c, _ := w.h.Fake.CommentByID(reply); !slices.Contains(c.Reactions["+1"], w.h.Fake.BotLogin()) {
		t.Errorf("maria's reply has reactions %v, want the app's +1", c.Reactions)
	}
	w.replayAll()
}

// Issue 12 item 8, continued: the sweep times a pull request's clarification out like an issue's.
func TestAClarificationInAPullRequestGoesStaleOnTheSweep(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.OpenPullRequest(repo, 7, "Add the rate limiter", "maria")
	w.commentOn(7, "coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.Advance(31 * time.Minute)
	stats, err := w.h.Sweep(context.Background())
	if err != nil || stats.Issues != 1 {
		t.Fatalf("sweep: %v, %d issue(s) visited, want the pull request", err, stats.Issues)
	}
	if c, _ := w.ledgerOn(7).Find("CLR-7-001"); c.Status != clarify.Stale {
		t.Errorf("CLR-7-001 is %s after the sweep, want stale", c.Status)
	}
	if n := w.botCommentsOn(7, "Still waiting"); n != 1 {
		t.Errorf("%d stale pings on the pull request, want 1", n)
	}
	if !strings.Contains(w.labelsOn(7), "clarification:stale") {
		t.Errorf("pull request labels %q lack clarification:stale", w.labelsOn(7))
	}
}

const routeTeamMembership = "GET /orgs/{org}/teams/{team_slug}/memberships/{username}"

// Issue 12 item 11: ten drive-by "+1" comments with a role of 100 teams made 5,500
// membership requests; one team and 20 commenters made 190. A "+1" by a member of an
// awaited team answers, so a commenter's memberships can change the outcome and may be
// looked up; but each (team, person) at most once while the answer is trusted, however
// many times the fold replays their comment. The bound asserted is therefore
// teams × commenters, with no pair asked twice. `go test ./handlers -run
// TestDriveByPlusOnes -v` prints the figures.
func TestDriveByPlusOnesCostAtMostOneMembershipLookupPerTeamAndPerson(t *testing.T) {
	for name, tc := range map[string]struct{ teams, comments, commenters int }{
		"100teams10commenters":      {100, 10, 10},
		"100teams1commenter10times": {100, 10, 1},
		"1team20commenters":         {1, 20, 20},
	} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			var members []string
			for i := 0; i < tc.teams; i++ {
				slug := fmt.Sprintf("team-%03d", i)
				w.h.Fake.AddTeamMember("octo", slug, fmt.Sprintf("rev-%03d", i))
				members = append(members, fmt.Sprintf("%q", "@octo/"+slug))
			}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", "roles:\n  reviewers: ["+strings.Join(members, ", ")+"]\n")
			w.comment("coder-agent", "/clarify reviewers Which cache do we put in front of the API?")
			if c, ok := w.ledger().Find("CLR-42-001"); !ok || c.Target.Name != "reviewers" {
				t.Fatalf("the ask of the reviewers role was not taken: %+v", w.ledger().Clarifications)
			}
			w.h.Fake.ResetRequests()
			for i := 0; i < tc.comments; i++ {
				// Apart in time, well within the cache's life: the figure is about replays.
				w.h.Fake.Advance(10 * time.Second)
				w.comment(fmt.Sprintf("passer-%02d", i%tc.commenters), "+1")
			}
			lookups, perPair := 0, map[string]int{}
			for _, q := range w.h.Fake.Requests() {
				if q.Route == routeTeamMembership {
					lookups++
					perPair[q.Path]++
				}
			}
			bound := tc.teams * tc.commenters
			t.Logf("%d teams, %d drive-by \"+1\" comments by %d commenter(s): %d membership requests (bound %d), %d requests in all",
				tc.teams, tc.comments, tc.commenters, lookups, bound, len(w.h.Fake.Requests()))
			if lookups > bound {
				t.Errorf("%d membership requests, want at most %d (one per team and person)", lookups, bound)
			}
			for path, n := range perPair {
				if n > 1 {
					t.Errorf("%s asked %d times, want at most once", path, n)
				}
			}
			if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
				t.Errorf("CLR-42-001 is %s after the drive-by comments, want pending", c.Status)
			}
			// The teams really are the role: a member of the last one answers.
			w.h.Fake.Advance(10 * time.Second)
			w.comment(fmt.Sprintf("rev-%03d", tc.teams-1), "Redis.")
			if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
				t.Errorf("CLR-42-001 is %s after a member of @octo/team-%03d replied, want answered", c.Status, tc.teams-1)
			}
		})
	}
}
