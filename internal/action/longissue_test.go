package action_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// TestAnOutsidersCommentInALongIssueReadsWhatIsNew: in a labelled issue of 2,000 comments
// (a long discussion whose runs never happened), an outsider comments every minute for
// half an hour, each comment with its run. A run lists what is new since Clarify's last
// save, not every page of the issue: `go test ./internal/action -run TestAnOutsiders -v`
// prints the requests of each run.
func TestAnOutsidersCommentInALongIssueReadsWhatIsNew(t *testing.T) {
	cases := map[string]struct{ before, after int }{
		"statusCommentOnTheFirstPage": {after: 2000},
		"statusCommentOnPage21":       {before: 2000},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.talk(tc.before)
			b.comment("coder-agent", askWithFallback)
			b.talk(tc.after)
			var spent []int
			for m := range 30 {
				b.fake.Advance(time.Minute)
				_, r := b.comment("drive-by", fmt.Sprintf("+1, any news? (%d)", m))
				spent = append(spent, r.requests)
			}
			t.Logf("an outsider's comment a minute in a labelled issue of 2,000 comments: requests a run %v", spent)
			// The first run reads the whole issue once; every later run, what is new.
			for i, n := range spent[1:] {
				if n > 5 {
					t.Errorf("run %d of an outsider's comment made %d requests; want at most 5", i+2, n)
				}
			}
			// Its 30 minutes passed meanwhile: time acted as it does in a short issue.
			if c := b.clar("CLR-42-001"); c.Status != clarify.Stale {
				t.Errorf("the question is %s after the outsider's comments; want stale", c.Status)
			}
		})
	}
}

// TestALongIssuesRunTakesTheCommentsWhoseRunsWereDropped: in an issue of 2,000 comments,
// maria's answer and the agent's follow-up, made minutes apart, lose their runs; the next
// run, an outsider's, reads only the comments since the last save and applies both.
func TestALongIssuesRunTakesTheCommentsWhoseRunsWereDropped(t *testing.T) {
	b := newBench(t)
	b.talk(2000)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.fake.Advance(3 * time.Minute)
	b.commentOnly("maria", "Per API key.")
	b.fake.Advance(3 * time.Minute)
	b.commentOnly("coder-agent", "/clarify followup CLR-42-001 Which limit per key: 100 or 1000 a minute?")
	b.fake.Advance(3 * time.Minute)
	_, r := b.comment("drive-by", "+1")
	c := b.clar("CLR-42-001")
	if c.Status != clarify.Pending || c.Round != 2 {
		t.Fatalf("after the outsider's run: %s in round %d; want pending in round 2 (maria's answer and the follow-up applied)", c.Status, c.Round)
	}
	if n := b.botComments("CLR-42-001 · round 2/5"); n != 1 {
		t.Errorf("round 2 mirrored %d times, want once", n)
	}
	t.Logf("the outsider's run made %d requests", r.requests)
}

// talk has drive-bys write n comments in issue 42, 20 seconds apart, whose runs never
// happened (a busy concurrency group dropped them).
func (b *bench) talk(n int) {
	for i := range n {
		b.commentOnly("drive-by", fmt.Sprintf("Same here, any news? (%d)", i))
		b.fake.Advance(20 * time.Second)
	}
}
