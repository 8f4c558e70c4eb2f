package action_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// Two runs on one issue at once: the scheduled run (in a concurrency group of its own)
// fires the passed deadline, from a read that predates maria's answer; the answer's run
// applies it. The requests are held so that the two interleave exactly as the window
// needs. After both runs, and no other, the answer must be in the ledger and nothing
// posted twice.
func TestEventRunAndScheduledRunAtOnce(t *testing.T) {
	cases := map[string]struct {
		// hold is the scheduled run's request held until the answer's run is through (or,
		// with untilEdit, until the answer's run edited the status comment): the first
		// with the method whose path holds part (not the edit that colours the label).
		method, part string
		untilEdit    bool
	}{
		// The answer's run saves between the scheduled run's read and its save: the
		// check just before the edit sees the ledger moved.
		"savedBeforeTheEdit": {method: http.MethodPost, part: "/comments"},
		// The scheduled run's edit lands just after the answer's: the answer's run reads
		// its edit back, finds it overwritten from an equally old read, and runs again.
		"overwrittenAfterTheEdit": {method: http.MethodPatch, part: "/issues/comments/", untilEdit: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b, sweepToken := overdueAsk(t, 150*time.Millisecond)
			arrived, release, edited := make(chan struct{}), make(chan struct{}), make(chan struct{})
			var once, onceEdit sync.Once
			b.hooks.set(func(token string, r *http.Request) {
				if token == sweepToken && r.Method == tc.method && strings.Contains(r.URL.Path, tc.part) {
					once.Do(func() { close(arrived); <-release })
				}
			}, func(token string, r *http.Request) {
				if token == b.token && r.Method == http.MethodPatch {
					onceEdit.Do(func() { close(edited) })
				}
			})
			env := b.env("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
			env.Token = sweepToken
			sweep := make(chan result)
			go func() { sweep <- b.runEnv(env) }()
			<-arrived
			d, answer := b.fake.Comment(repo, 42, "maria", "Per API key.")
			event := make(chan result)
			go func() { event <- b.runEnv(b.env("issue_comment", b.eventFile(d))) }()
			if tc.untilEdit {
				<-edited
			} else {
				if r := <-event; r.code != 0 {
					t.Fatalf("the answer's run exited %d: %s", r.code, r.stdout)
				}
			}
			close(release)
			if r := <-sweep; r.code != 0 {
				t.Fatalf("the scheduled run exited %d: %s", r.code, r.stdout)
			}
			if tc.untilEdit {
				if r := <-event; r.code != 0 {
					t.Fatalf("the answer's run exited %d: %s", r.code, r.stdout)
				}
			}
			checkAnswerKeptOnce(t, b, answer)
		})
	}
}

// checkAnswerKeptOnce fails t unless maria's answer (comment id answer) is in the ledger
// and read past, and the status comment, the round and the ping were each posted once.
func checkAnswerKeptOnce(t *testing.T, b *bench, answer int64) {
	t.Helper()
	l := b.ledger(42)
	c, _ := l.Find("CLR-42-001")
	if c.Status != clarify.Answered || c.Thread[len(c.Thread)-1].CommentID != answer || l.Cursor < answer {
		t.Fatalf("the answer was lost: %+v (cursor %d)\n%s", c, l.Cursor, b.fake.Transcript(repo, 42))
	}
	for _, text := range []string{"clarify:ledger", `"kind":"round"`, `"kind":"ping"`} {
		if n := b.botComments(text); n != 1 {
			t.Errorf("%d comments holding %q, want 1:\n%s", n, text, b.fake.Transcript(repo, 42))
		}
	}
}

// statusTraffic is what a run did to the status comment (id status) and the issue's
// comment list, in request order: "get", "edit", "list".
func statusTraffic(b *bench, from int, status int64) []string {
	var out []string
	one := fmt.Sprintf("/repos/octo/widgets/issues/comments/%d", status)
	for _, r := range b.fake.Requests()[from:] {
		switch {
		case r.Path == one && r.Method == http.MethodGet:
			out = append(out, "get")
		case r.Path == one && r.Method == http.MethodPatch:
			out = append(out, "edit")
		case r.Path == "/repos/octo/widgets/issues/42/comments" && r.Method == http.MethodGet:
			out = append(out, "list")
		}
	}
	return out
}

// TestOnlyTheScheduledRunChecksAnIssuesSaves: the job's concurrency group runs an
// issue's event runs one at a time, so an event's run lists the issue once and edits its
// status comment without reading it again before or after (nor looks for a twin of its
// first post); the scheduled run, the one run that may share the issue with another, reads
// the status comment just before its edit and lists the comments again after it.
func TestOnlyTheScheduledRunChecksAnIssuesSaves(t *testing.T) {
	b := newBench(t)
	b.settle = 50 * time.Millisecond
	before := len(b.fake.Requests())
	b.comment("coder-agent", askWithFallback)
	if got := statusTraffic(b, before, 0); !slices.Equal(got, []string{"list"}) {
		t.Errorf("the ask's run listed the comments %v; want once (no look for a twin of its post)", got)
	}
	status := b.statusID(42)
	before = len(b.fake.Requests())
	b.comment("maria", "Per API key.")
	if got := statusTraffic(b, before, status); !slices.Equal(got, []string{"list", "edit"}) {
		t.Errorf("the answer's run did %v to the status comment; want [list edit]", got)
	}
	b.fake.Advance(3 * time.Hour) // the answer's follow-up is due: the scheduled run edits
	before = len(b.fake.Requests())
	b.schedule()
	got := statusTraffic(b, before, status)
	if i := slices.Index(got, "edit"); i < 1 || got[i-1] != "get" || !slices.Contains(got[i:], "list") {
		t.Errorf("the scheduled run did %v to the status comment; want a read just before its edit and a listing after it", got)
	}
}

// TestTheScheduledRunGivesWayToAnEventRunsPost: an ask's own run, started late, reads the
// issue before the scheduled run (which took the ask as missed) posts the status comment,
// and posts its own after it. The event's run does not look for a twin; the scheduled
// run, looking after its post, finds the newer one and deletes its own, so the issue keeps
// one status comment.
func TestTheScheduledRunGivesWayToAnEventRunsPost(t *testing.T) {
	b := newBench(t)
	b.settle = 50 * time.Millisecond
	d := b.commentOnly("coder-agent", askWithFallback)
	b.fake.Advance(5 * time.Minute)
	sweepToken, eventToken := b.fake.WorkflowToken(repo), b.fake.WorkflowToken(repo)
	comments := "/repos/octo/widgets/issues/42/comments"
	sweepPost, sweepList := req{sweepToken, http.MethodPost, comments}, req{sweepToken, http.MethodGet, comments}
	eventPost, eventList := req{eventToken, http.MethodPost, comments}, req{eventToken, http.MethodGet, comments}
	b.sequence([]hold{
		{req: sweepPost, until: "event read"},
		{req: sweepList, until: "event posted", when: "sweep posted"},
		{req: eventPost, until: "sweep posted"},
	}, []signal{{eventList, "event read"}, {sweepPost, "sweep posted"}, {eventPost, "event posted"}})
	sweepEnv := b.env("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
	eventEnv := b.env("issue_comment", b.eventFile(d))
	sweepEnv.Token, eventEnv.Token = sweepToken, eventToken
	b.runBoth(sweepEnv, eventEnv)
	if n := b.botComments("clarify:status"); n != 1 {
		t.Fatalf("%d status comments, want 1:\n%s", n, b.fake.Transcript(repo, 42))
	}
	if c, ok := b.ledger(42).Find("CLR-42-001"); !ok || c.Status != clarify.Pending {
		t.Fatalf("the ask after both runs: %+v, want pending", c)
	}
}

// TestACommentAfterTheScheduledRunsEditDoesNotRunItAgain: a comment made after the
// scheduled run's edit of the status comment landed has a run that reads that edit, so
// the scheduled run's check after its edit does not start it over (a drive-by commenting
// on and on would otherwise keep it running); one made before the edit does.
func TestACommentAfterTheScheduledRunsEditDoesNotRunItAgain(t *testing.T) {
	for name, before := range map[string]bool{"made after the edit": false, "made before the edit": true} {
		t.Run(name, func(t *testing.T) {
			b, sweepToken := overdueAsk(t, 50*time.Millisecond)
			status := fmt.Sprintf("/repos/octo/widgets/issues/comments/%d", b.statusID(42))
			var once sync.Once
			drive := func() { b.fake.Comment(repo, 42, "drive-by", "Any news?") }
			b.hooks.set(func(token string, r *http.Request) {
				if token == sweepToken && r.Method == http.MethodPatch && r.URL.Path == status && before {
					once.Do(drive)
				}
			}, func(token string, r *http.Request) {
				if token == sweepToken && r.Method == http.MethodPatch && r.URL.Path == status && !before {
					once.Do(func() { b.fake.Advance(time.Second); drive() })
				}
			})
			from := len(b.fake.Requests())
			env := b.env("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
			env.Token = sweepToken
			if r := b.runEnv(env); r.code != 0 {
				t.Fatalf("the scheduled run exited %d: %s", r.code, r.stdout)
			}
			if reads, want := fullReads(b, from), map[bool]int{false: 1, true: 2}[before]; reads != want {
				t.Errorf("the scheduled run read #42 %d times, want %d", reads, want)
			}
		})
	}
}

// fullReads counts the reads of all of #42's comments (a run's snapshot, not a listing
// since a time) from request from on.
func fullReads(b *bench, from int) int {
	n := 0
	for _, r := range b.fake.Requests()[from:] {
		if r.Method == http.MethodGet && r.Path == "/repos/octo/widgets/issues/42/comments" && !strings.Contains(r.Query, "since") {
			n++
		}
	}
	return n
}

// overdueAsk is a bench (its save's settle delay settle) with an ask in #42 whose reply is
// overdue, and the token of the scheduled run that is to fire its deadline.
func overdueAsk(t *testing.T, settle time.Duration) (*bench, string) {
	b := newBench(t)
	b.settle = settle
	b.comment("coder-agent", askWithFallback)
	b.fake.Advance(31 * time.Minute)
	return b, b.fake.WorkflowToken(repo)
}
