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
