package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

const askWithFallback = "/clarify @maria Should the limit apply per API key or per client IP?\nOptions:\na) per API key\nb) per client IP\nFallback: a"

// TestLifecycleThroughBotAction plays ask, answer, follow-up, answer and resolve, each as
// its own `bot action` run from a fresh state, with GitHub's workflow payloads.
func TestLifecycleThroughBotAction(t *testing.T) {
	b := newBench(t)
	var took []string
	step := func(author, body string) int64 {
		id, r := b.comment(author, body)
		took = append(took, r.took.Round(time.Millisecond).String())
		return id
	}
	ask := step("coder-agent", askWithFallback)
	if n := b.botComments("Clarification needed · CLR-42-001 · round 1/5 · blocking"); n != 1 {
		t.Fatalf("round 1 mirrored %d times by %s, want once", n, fakegithub.ActionsBotLogin)
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || c.Thread[0].CommentID != ask {
		t.Fatalf("after the ask: %+v", c)
	}
	if b.labels() != "clarification:active" {
		t.Errorf("labels after the ask = %q", b.labels())
	}
	answer := step("maria", "Per API key: anonymous calls are blocked at the gateway.")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered || c.Thread[1].CommentID != answer {
		t.Fatalf("after the answer: %+v", c)
	}
	step("coder-agent", "/clarify followup CLR-42-001 Which limit per key: 100 or 1000 a minute?")
	if n := b.botComments("CLR-42-001 · round 2/5"); n != 1 {
		t.Fatalf("round 2 mirrored %d times, want once", n)
	}
	step("maria", "1000 a minute, bursts of 100.")
	step("coder-agent", "/clarify resolve CLR-42-001 Per key, 1000/min, bursts of 100.")
	c := b.clar("CLR-42-001")
	if c.Status != clarify.Resolved || c.Round != 2 || c.Resolution != "Per key, 1000/min, bursts of 100." {
		t.Fatalf("after resolve: %+v", c)
	}
	if b.labels() != "" {
		t.Errorf("labels after resolve = %q, want none", b.labels())
	}
	if n := b.botComments("clarify:ledger"); n != 1 {
		t.Errorf("%d status comments, want one edited in place", n)
	}
	checkRoutes(t, b)
	t.Logf("process time start to exit per event (ask, answer, follow-up, answer, resolve): %s", strings.Join(took, ", "))
}

// checkRoutes fails t for each request bot action made to a route GitHub does not serve,
// or to the organisation's default config, which GITHUB_TOKEN cannot reach.
func checkRoutes(t *testing.T, b *bench) {
	t.Helper()
	for _, r := range b.fake.Requests() {
		if r.Unhandled {
			t.Errorf("bot action called a route GitHub does not serve: %s %s", r.Method, r.Path)
		}
		if r.Path == "/repos/octo/.github" {
			t.Errorf("bot action looked for the organisation's default config, which GITHUB_TOKEN cannot reach")
		}
	}
}

// TestTimeoutToFallbackOnScheduledRuns: with nobody answering, a scheduled run marks the
// question stale, and a later workflow_dispatch run resolves it with its fallback.
func TestTimeoutToFallbackOnScheduledRuns(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.fake.Advance(31 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Stale {
		t.Fatalf("after the first wait: %s, want stale", c.Status)
	}
	b.fake.Advance(31 * time.Minute)
	b.ok("workflow_dispatch", b.writeEvent(map[string]any{"inputs": map[string]any{}, "ref": "refs/heads/main",
		"workflow": ".github/workflows/clarify.yml", "sender": map[string]any{"login": "maria", "type": "User"}}))
	l := b.ledger(42)
	c, _ := l.Find("CLR-42-001")
	if c.Status != clarify.Resolved || len(l.Assumptions) != 1 || l.Assumptions[0].Source != clarify.SourceTimeoutAssumed {
		t.Fatalf("after the second wait: %+v, assumptions %+v; want resolved with the fallback", c, l.Assumptions)
	}
	if b.labels() != "" {
		t.Errorf("labels = %q, want none", b.labels())
	}
}

// TestPassedDeadlineFiresOnTheNextEvent: no scheduled run at all; the next comment's run
// fires the deadline already passed before it applies the comment.
func TestPassedDeadlineFiresOnTheNextEvent(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.fake.Advance(31 * time.Minute)
	b.comment("drive-by", "Any news?")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Stale {
		t.Fatalf("after a comment past the deadline: %s, want stale", c.Status)
	}
}

func TestRefusalThroughBotAction(t *testing.T) {
	b := newBench(t)
	b.comment("maria", "/respond Per API key.")
	if n := b.botComments("Error code: `not-awaiting`"); n != 1 {
		t.Fatalf("%d refusals, want one saying not-awaiting:\n%s", n, b.fake.Transcript(repo, 42))
	}
}

func TestPullRequestCommentThroughBotAction(t *testing.T) {
	b := newBench(t)
	b.fake.OpenPullRequest(repo, 7, "Add the limiter", "coder-agent")
	d, _ := b.fake.Comment(repo, 7, "coder-agent", "/clarify @maria Per key or per IP?")
	b.ok("issue_comment", b.eventFile(d))
	if l := b.ledger(7); len(l.Clarifications) != 1 || l.Clarifications[0].Status != clarify.Pending {
		t.Fatalf("pull request ledger: %+v", l)
	}
}

func TestIssueClosedAbandonsThroughBotAction(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.ok("issues", b.eventFile(b.fake.CloseIssue(repo, 42, "maria")))
	if c := b.clar("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Fatalf("after the close: %s, want abandoned", c.Status)
	}
	if b.labels() != "" {
		t.Errorf("labels = %q, want none", b.labels())
	}
}

func TestRepositoryDispatchThroughBotAction(t *testing.T) {
	b := newBench(t)
	d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "ask",
		"target": "@maria", "question": "Per key or per IP?"})
	env := b.env("repository_dispatch", b.eventFile(d))
	if r := b.runEnv(env); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stdout)
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || c.Asker.Login != "coder-agent" {
		t.Fatalf("after the dispatch: %+v", c)
	}
	before := b.fake.Fingerprint()
	env.RunAttempt = "2" // the run re-run from the Actions tab
	if r := b.runEnv(env); r.code != 0 || b.fake.Fingerprint() != before {
		t.Fatalf("re-running the dispatch's run changed the issue (exit %d):\n%s", r.code, b.fake.Transcript(repo, 42))
	}
}

// TestBurstWithTheMiddleRunNeverStarted: three comments, the run of the second cancelled as
// the pending run of its concurrency group; the third's run applies both.
func TestBurstWithTheMiddleRunNeverStarted(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	b.commentOnly("coder-agent", "/clarify @maria Which header carries the key?")
	b.comment("coder-agent", "/clarify @maria May anonymous calls pass?")
	l := b.ledger(42)
	if len(l.Clarifications) != 3 {
		t.Fatalf("%d clarifications in the ledger, want all three asks", len(l.Clarifications))
	}
	for i, id := range []string{"CLR-42-001", "CLR-42-002", "CLR-42-003"} {
		if l.Clarifications[i].ID != id || b.botComments(id+" · round 1/5") != 1 {
			t.Errorf("%s not applied once in order: %+v", id, l.Clarifications[i])
		}
	}
}

// TestScheduledRunFindsACommandNoRunApplied: an ask whose only run was dropped leaves no
// label; the scheduled run finds it from the repository's recent comments.
func TestScheduledRunFindsACommandNoRunApplied(t *testing.T) {
	b := newBench(t)
	b.commentOnly("coder-agent", "/clarify @maria Per key or per IP?")
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("after the scheduled run: %+v", c)
	}
	r := b.schedule()
	if !strings.Contains(r.stdout, "Nothing to do") && b.botComments("round 1/5") != 1 {
		t.Errorf("the second scheduled run posted again:\n%s", b.fake.Transcript(repo, 42))
	}
}

// TestAScheduledRunLeavesACommandToItsOwnRunAWhile: a command a person made a minute
// ago may have its own run still queued, so the scheduled run leaves it (taking it would
// race that run); five minutes on, with still no sign of that run, the next takes it. An
// agent's command made with GITHUB_TOKEN starts no run of its own, so it is taken at once.
func TestAScheduledRunLeavesACommandToItsOwnRunAWhile(t *testing.T) {
	b := newBench(t)
	b.workflowComment("/clarify @maria Which header carries the key?")
	b.fake.OpenIssue(repo, 43, "Cache the schema", "maria")
	b.fake.Comment(repo, 43, "coder-agent", "/clarify @maria Per key or per IP?")
	b.fake.Advance(time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || c.Asker.Login != fakegithub.ActionsBotLogin {
		t.Fatalf("an agent's command with GITHUB_TOKEN a minute old was left: %+v", c)
	}
	if b.statusID(43) != 0 {
		t.Fatalf("the scheduled run took a command a minute old:\n%s", b.fake.Transcript(repo, 43))
	}
	b.fake.Advance(4 * time.Minute)
	b.schedule()
	if c, ok := b.ledger(43).Find("CLR-43-001"); !ok || c.Status != clarify.Pending {
		t.Fatalf("five minutes on, the scheduled run left the command: %+v", c)
	}
}

// TestSameEventFileTwiceChangesTheLedgerOnce: a re-run of the same run.
func TestSameEventFileTwiceChangesTheLedgerOnce(t *testing.T) {
	b := newBench(t)
	d, _ := b.fake.Comment(repo, 42, "coder-agent", askWithFallback)
	path := b.eventFile(d)
	b.ok("issue_comment", path)
	first := b.fake.Fingerprint()
	rev := b.ledger(42).Rev
	r := b.ok("issue_comment", path)
	if b.ledger(42).Rev != rev || b.fake.Fingerprint() != first {
		t.Fatalf("the same event run twice changed the issue:\n%s", b.fake.Transcript(repo, 42))
	}
	if !strings.Contains(r.stdout, "Nothing to do") {
		t.Errorf("the second run does not say it had nothing to do: %q", r.stdout)
	}
}

func TestPullRequestEventThroughBotAction(t *testing.T) {
	b := newBench(t)
	b.checks = true
	b.comment("coder-agent", askWithFallback)
	d := b.fake.OpenPullRequestWithBody(repo, 8, "Add the limiter", "coder-agent", "Fixes #42")
	b.ok("pull_request", b.eventFile(d))
	runs := b.fake.CheckRuns(repo, b.fake.PullHead(repo, 8))
	if len(runs) != 1 || runs[0].Conclusion != "failure" {
		t.Fatalf("check runs on the pull request linking #42 with a blocking question: %+v", runs)
	}
}

// TestWithoutChecksAPullRequestCostsNothing: without CLARIFY_CHECKS (the copied workflow
// grants no `checks: write`), a lifecycle lists no pull requests and a pull request's
// event makes no request; with it, the pull request linking a blocked issue fails its check.
func TestWithoutChecksAPullRequestCostsNothing(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	d := b.fake.OpenPullRequestWithBody(repo, 8, "Add the limiter", "coder-agent", "Fixes #42")
	if r := b.ok("pull_request", b.eventFile(d)); r.requests != 0 {
		t.Errorf("a pull request's run without checks made %d requests, want none", r.requests)
	}
	if runs := b.fake.CheckRuns(repo, b.fake.PullHead(repo, 8)); len(runs) != 0 {
		t.Errorf("check runs written without CLARIFY_CHECKS: %+v", runs)
	}
	for _, r := range b.fake.Requests() {
		if r.Route == "GET /repos/{owner}/{repo}/pulls" {
			t.Errorf("the ask listed pull requests without CLARIFY_CHECKS")
		}
	}
}
