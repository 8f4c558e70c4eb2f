package action_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// putBack has another workflow of the repository, with its own token and issues: write,
// write body into Clarify's status comment of #42 through the REST API, as a body taken
// from the comment's edit history would be. GitHub starts no workflow run for that edit.
func (b *bench) putBack(body string) {
	b.t.Helper()
	_, _, err := b.workflow().Issues.EditComment(context.Background(), "octo", "widgets", b.statusID(42), &github.IssueComment{Body: &body})
	if err != nil {
		b.t.Fatal(err)
	}
	b.fake.TakeOutbox() // GitHub delivers it to no workflow
}

// TestAStatusBodyPutBackByAnotherWorkflowWakesNobodyAgain: another workflow puts back the
// status comment's body from before the answer, and its edit starts no run. The next run
// does not take that ledger: nobody is woken a second time for the same answer, the
// answer stays, the revision saved is above every one saved before, and the issue says
// what happened, once, however many runs follow.
func TestAStatusBodyPutBackByAnotherWorkflowWakesNobodyAgain(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	older := b.statusBody()
	b.fake.Advance(10 * time.Minute)
	b.comment("maria", "Per API key.")
	answered := b.ledger(42)
	b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1")

	b.fake.Advance(10 * time.Minute)
	b.putBack(older)
	b.comment("drive-by", "Any news on this?")
	b.schedule()

	b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1")
	l := b.ledger(42)
	if c, _ := l.Find("CLR-42-001"); c.Status != clarify.Answered || clarify.LastAnswer(c) != "Per API key." {
		t.Errorf("CLR-42-001 is %s with answer %q, want the answer kept", c.Status, clarify.LastAnswer(c))
	}
	if l.Rev <= answered.Rev {
		t.Errorf("saved at revision %d after the put-back body, want above %d, which the answer's run saved", l.Rev, answered.Rev)
	}
	if n := b.botComments("put back to an older version"); n != 1 {
		t.Errorf("%d notices of the put-back body, want 1", n)
	}
}
