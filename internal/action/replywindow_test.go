package action_test

import (
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestAReplyTheMomentTheRoundAppearsStartsAJob: the ask's run puts clarification:active on
// before it posts the round that mentions the target, so a reply typed the moment the round
// appears carries the label in its payload; the copied workflow's if: starts a job for it,
// and that job records the answer. A label put on after the round would leave the reply to
// the next scheduled run.
func TestAReplyTheMomentTheRoundAppearsStartsAJob(t *testing.T) {
	wf := readWorkflow(t)
	b := newBench(t)
	f := b.fake
	var reply fakegithub.Delivery
	var replyID int64
	f.AfterNext("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", func() {
		reply, replyID = f.Comment(repo, 42, "maria", "Per API key: anonymous calls are blocked at the gateway.")
	})
	b.ok("issue_comment", b.eventFile(b.commentOnly("coder-agent", askWithFallback)))
	if replyID == 0 {
		t.Fatal("the ask's run posted no comment")
	}
	p := payloadOf(t, reply)
	if !wf.triggered("issue_comment", p) || !wf.jobIf(t, "issue_comment", p) {
		issue, _ := p["issue"].(map[string]any)
		t.Fatalf("a reply made the moment the round was posted starts no job: its payload's labels are %v", issue["labels"])
	}
	b.ok("issue_comment", b.eventFile(reply))
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered || len(c.Thread) < 2 || c.Thread[1].CommentID != replyID {
		t.Errorf("after the reply's job: %+v, want it answered by comment %d", c, replyID)
	}
}

// TestALabelThatFailsHoldsTheRoundBack: when GitHub answers the ask's label with a 502 that
// no retry gets past (the bench waits for none), the run fails before it posts the round,
// so nobody is asked in an issue whose replies would start no job; the job run again
// labels the issue and posts the round, once.
func TestALabelThatFailsHoldsTheRoundBack(t *testing.T) {
	b := newBench(t)
	ask := b.eventFile(b.commentOnly("coder-agent", askWithFallback))
	b.fake.FailNext("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", 502, 1)
	if r := b.run("issue_comment", ask); r.code == 0 {
		t.Fatalf("the run whose label GitHub refused exited 0:\n%s", r.stdout)
	}
	if n := b.botComments("Clarification needed"); n != 0 || b.labels() != "" {
		t.Fatalf("after the failed label: %d rounds posted, labels %q; want none of either", n, b.labels())
	}
	b.ok("issue_comment", ask) // the failed job run again
	if n := b.botComments("Clarification needed · CLR-42-001"); n != 1 || b.labels() != "clarification:active" {
		t.Errorf("after the job ran again: %d rounds, labels %q; want one round and clarification:active", n, b.labels())
	}
}
