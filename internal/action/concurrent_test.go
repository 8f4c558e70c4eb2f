package action_test

import (
	"net/http"
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
		// with untilEdit, until the answer's run edited the status comment).
		method, suffix string
		untilEdit      bool
	}{
		// The answer's run saves between the scheduled run's read and its save: the
		// check just before the edit sees the ledger moved.
		"savedBeforeTheEdit": {method: http.MethodPost, suffix: "/comments"},
		// The scheduled run's edit lands just after the answer's: the answer's run reads
		// its edit back, finds it overwritten from an equally old read, and runs again.
		"overwrittenAfterTheEdit": {method: http.MethodPatch, suffix: "", untilEdit: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.settle = 150 * time.Millisecond
			b.comment("coder-agent", askWithFallback)
			b.fake.Advance(31 * time.Minute)
			sweepToken := b.fake.WorkflowToken(repo)
			arrived, release, edited := make(chan struct{}), make(chan struct{}), make(chan struct{})
			var once, onceEdit sync.Once
			b.hooks.set(func(token string, r *http.Request) {
				if token == sweepToken && r.Method == tc.method && strings.HasSuffix(r.URL.Path, tc.suffix) {
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

// TestAFreshReadIsNotReadAgainBeforeTheEdit: a run that reads the issue and edits its
// status comment well within half the settle delay leaves the check of that edit to the
// read-back (a competitor's edit since our read is read back after ours lands), so the
// status comment is read once after the edit and not before it.
func TestAFreshReadIsNotReadAgainBeforeTheEdit(t *testing.T) {
	b := newBench(t)
	b.settle = time.Second
	b.comment("coder-agent", askWithFallback)
	before := len(b.fake.Requests())
	b.comment("maria", "Per API key.")
	var reads, edits []int
	for i, r := range b.fake.Requests()[before:] {
		if strings.HasPrefix(r.Path, "/repos/octo/widgets/issues/comments/") && !strings.HasSuffix(r.Path, "/reactions") {
			switch r.Method {
			case http.MethodGet:
				reads = append(reads, i)
			case http.MethodPatch:
				edits = append(edits, i)
			}
		}
	}
	if len(edits) != 1 || len(reads) != 1 || reads[0] < edits[0] {
		t.Fatalf("status comment read at %v and edited at %v (request positions); want one edit and one read after it", reads, edits)
	}
}
