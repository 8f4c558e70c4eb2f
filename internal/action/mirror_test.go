package action_test

import (
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// mirrorLine is what the mirror of a dispatch says of its sender.
const mirrorLine = "via `repository_dispatch`, taken as their comment"

// dispatchJobs are the two jobs docs/workflow.yml runs for a dispatch in one workflow run
// (one GITHUB_RUN_ID): the mirror job's step, with mirror-only, and the clarify job's.
func (b *bench) dispatchJobs(d fakegithub.Delivery) (mirror, run action.Env) {
	run = b.env("repository_dispatch", b.eventFile(d))
	mirror = run
	mirror.MirrorOnly = true
	return mirror, run
}

// TestADispatchWhoseJobIsCancelledIsAppliedByTheNewerJob: the mirror job writes the
// dispatch's mirror and nothing else; when GitHub then cancels the dispatch's own job, which
// waited in the issue's group, the newer job of the issue (here a comment's) applies the
// mirror as the sender's command.
func TestADispatchWhoseJobIsCancelledIsAppliedByTheNewerJob(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	statusBody := func() string {
		c, _ := b.fake.CommentByID(b.statusID(42))
		return c.Body
	}
	before := statusBody()
	d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "resolve",
		"id": "CLR-42-001", "decision": "Per API key."})
	mirror, _ := b.dispatchJobs(d)
	if r := b.runEnv(mirror); r.code != 0 {
		t.Fatalf("the mirror job exited %d:\n%s", r.code, r.stdout)
	}
	if n := b.botComments(mirrorLine); n != 1 {
		t.Fatalf("the mirror job posted %d mirrors, want 1:\n%s", n, b.fake.Transcript(repo, 42))
	}
	if statusBody() != before || b.clar("CLR-42-001").Status != clarify.Pending {
		t.Fatalf("the mirror job changed the status comment (%s now): it must only write the mirror", b.clar("CLR-42-001").Status)
	}
	// The dispatch's own job is cancelled while it waits; a newer job of the issue runs.
	b.comment("maria", "/clarify")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Resolved {
		t.Errorf("after the newer job: %s, want resolved by the mirrored dispatch", c.Status)
	}
	if n := b.botComments(mirrorLine); n != 1 {
		t.Errorf("%d mirrors after the newer job, want 1", n)
	}
}

// TestAReplyTheMomentADispatchedAskMentionsTheTargetStartsAJob: the mirror of a dispatched
// ask does not @mention its target; the round does, once the label is on, so a reply typed
// the moment the target is first told carries the label and starts a job, which records
// the answer. The dispatch runs as the copied workflow runs it: the mirror job, then the
// issue's job, which finds the mirror and asks once.
func TestAReplyTheMomentADispatchedAskMentionsTheTargetStartsAJob(t *testing.T) {
	wf := readWorkflow(t)
	b := newBench(t)
	f := b.fake
	var mu sync.Mutex
	var reply fakegithub.Delivery
	var replyID int64
	b.hooks.set(nil, func(_ string, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/comments") || replyID != 0 {
			return
		}
		if cs := f.Comments(repo, 42); len(cs) > 0 && strings.Contains(cs[len(cs)-1].Body, "@maria") {
			reply, replyID = f.Comment(repo, 42, "maria", "Per API key.")
		}
	})
	d := f.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "ask", "target": "@maria",
		"question": "Per API key or per client IP?"})
	mirror, run := b.dispatchJobs(d)
	b.runEnv(mirror)
	b.runEnv(run)
	b.hooks.set(nil, nil)
	mu.Lock()
	defer mu.Unlock()
	if replyID == 0 {
		t.Fatalf("no comment of Clarify's @mentioned maria:\n%s", f.Transcript(repo, 42))
	}
	p := payloadOf(t, reply)
	if !wf.triggered("issue_comment", p) || !wf.jobIf(t, "issue_comment", p) {
		issue, _ := p["issue"].(map[string]any)
		t.Fatalf("a reply made the moment maria was first @mentioned starts no job: its payload's labels are %v", issue["labels"])
	}
	if n := b.botComments(mirrorLine); n != 1 || b.botComments("Clarification needed · CLR-42-001") != 1 {
		t.Fatalf("%d mirrors and %d rounds, want one of each:\n%s", n, b.botComments("Clarification needed"), f.Transcript(repo, 42))
	}
	b.ok("issue_comment", b.eventFile(reply))
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Errorf("after the reply's job: %s, want answered", c.Status)
	}
}

// TestAMirrorWhoseRunNeverCameIsTakenByTheScheduledRun: the mirror job wrote a dispatched
// ask into an issue without Clarify's label, and the issue's job failed (or never ran);
// nothing else happens in the issue. The scheduled run takes the mirror as the command it
// is, though the comment is Clarify's, and asks.
func TestAMirrorWhoseRunNeverCameIsTakenByTheScheduledRun(t *testing.T) {
	b := newBench(t)
	d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "ask", "target": "@maria",
		"question": "Per API key or per client IP?"})
	mirror, _ := b.dispatchJobs(d)
	if r := b.runEnv(mirror); r.code != 0 || b.botComments(mirrorLine) != 1 {
		t.Fatalf("the mirror job exited %d and posted %d mirrors", r.code, b.botComments(mirrorLine))
	}
	b.fake.Advance(10 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || b.botComments("Clarification needed · CLR-42-001") != 1 {
		t.Fatalf("after the scheduled run: %+v; want CLR-42-001 asked once:\n%s", c, b.fake.Transcript(repo, 42))
	}
	if b.labels() != "clarification:active" {
		t.Errorf("labels %q, want clarification:active", b.labels())
	}
}

// TestADispatchNamingNoIssueKeepsItsStateOutOfTheLog: a dispatched ask without a usable
// issue is dropped with a log line that quotes its payload, and anyone who can read the
// repository reads a workflow's log: the ask's state is shown by its size only, in the
// mirror job's run and the issue job's alike.
func TestADispatchNamingNoIssueKeepsItsStateOutOfTheLog(t *testing.T) {
	b := newBench(t)
	const state = "session-token-of-the-agent-0123456789"
	d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": "forty-two", "action": "ask", "target": "@maria",
		"question": "Per API key or per client IP?", "context": map[string]any{"ref": "step-1", "state": state}})
	mirror, run := b.dispatchJobs(d)
	for _, env := range []action.Env{mirror, run} {
		r := b.runEnv(env)
		summary, _ := os.ReadFile(b.summary)
		if !strings.Contains(r.logs, "Dispatch names no issue") || !strings.Contains(r.logs, "step-1") {
			t.Fatalf("the log does not say the dispatch was dropped, quoting it:\n%s", r.logs)
		}
		if strings.Contains(r.logs+r.stdout+string(summary), state) {
			t.Errorf("the run (mirror-only %v) wrote the ask's state into the log or the summary:\n%s\n%s", env.MirrorOnly, r.logs, r.stdout)
		}
	}
	if n := len(b.fake.Comments(repo, 42)); n != 0 {
		t.Errorf("%d comments written, want none", n)
	}
}

// TestAMirrorOnlyStepTakesNoOtherEvent: the mirror job's step, were it started by another
// event (a workflow edited by hand), makes no request and says why: the schedule's sweep
// and a comment's run belong to the job in the issue's group.
func TestAMirrorOnlyStepTakesNoOtherEvent(t *testing.T) {
	b := newBench(t)
	d, _ := b.fake.Comment(repo, 42, "coder-agent", askWithFallback)
	for event, path := range map[string]string{"schedule": b.writeEvent(map[string]string{"schedule": "7 */2 * * *"}),
		"issue_comment": b.eventFile(d)} {
		env := b.env(event, path)
		env.MirrorOnly = true
		r := b.runEnv(env)
		summary, _ := os.ReadFile(b.summary)
		if r.code != 0 || r.requests != 0 || !strings.Contains(string(summary), "with mirror-only, a run writes the mirror of a repository_dispatch") {
			t.Errorf("%s with mirror-only: exit %d, %d requests; summary:\n%s", event, r.code, r.requests, summary)
		}
	}
}

// TestAskByDispatchCost prints what an ask by dispatch costs in a fresh issue as the copied
// workflow runs it, the mirror job and the issue's job, against the one job that mirrors
// and asks. The mirror job reads and writes the mirror, its one write.
func TestAskByDispatchCost(t *testing.T) {
	cost := map[bool][2]int{}
	for _, two := range []bool{false, true} {
		b := newBench(t)
		d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "ask", "target": "@maria",
			"question": "Per API key or per client IP?"})
		mirror, run := b.dispatchJobs(d)
		var m result
		if two {
			before := len(b.fake.Requests())
			m = b.runEnv(mirror)
			var writes []string
			for _, q := range b.fake.Requests()[before:] {
				if q.Method != http.MethodGet {
					writes = append(writes, q.Route)
				}
			}
			if len(writes) != 1 || writes[0] != "POST /repos/{owner}/{repo}/issues/{issue_number}/comments" {
				t.Fatalf("the mirror job wrote %v, want the mirror only", writes)
			}
		}
		r := b.runEnv(run)
		if r.code != 0 {
			t.Fatalf("the issue's job exited %d:\n%s", r.code, r.stdout)
		}
		cost[two] = [2]int{m.requests, r.requests}
		if b.clar("CLR-42-001").Status != clarify.Pending {
			t.Fatalf("the ask was not taken (two jobs: %v)", two)
		}
	}
	t.Logf("ask by dispatch in a fresh issue: %d requests in one job; %d with the mirror job (%d) and the issue's job (%d)",
		cost[false][1], cost[true][0]+cost[true][1], cost[true][0], cost[true][1])
}
