package action_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
)

// An agent in a workflow of the same repository holds that workflow's GITHUB_TOKEN, and
// so writes as github-actions[bot], the account Clarify's own runs write as. These tests
// play it through `bot action`, one fresh run per event, each workflow with a token of
// its own.

// workflow is another workflow's run of the repository: a client with its own token.
func (b *bench) workflow() *github.Client {
	b.t.Helper()
	client := github.NewClient(nil).WithAuthToken(b.fake.WorkflowToken(repo))
	client.BaseURL, _ = url.Parse(b.url + "/")
	return client
}

// workflowComment posts body in #42 as another workflow does. GitHub starts no workflow
// run for a comment made with a GITHUB_TOKEN, so no run of Clarify's follows it.
func (b *bench) workflowComment(body string) int64 {
	b.t.Helper()
	c, _, err := b.workflow().Issues.CreateComment(context.Background(), "octo", "widgets", 42, &github.IssueComment{Body: &body})
	if err != nil {
		b.t.Fatal(err)
	}
	b.fake.TakeOutbox() // GitHub delivers it to no workflow
	return c.GetID()
}

// agentDispatch sends a "clarify" repository_dispatch as an agent in a workflow does, then
// runs Clarify's workflow for the event GitHub starts it with.
func (b *bench) agentDispatch(payload map[string]any) result {
	b.t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		b.t.Fatal(err)
	}
	msg := json.RawMessage(raw)
	if _, _, err := b.workflow().Repositories.Dispatch(context.Background(), "octo", "widgets",
		github.DispatchRequestOptions{EventType: "clarify", ClientPayload: &msg}); err != nil {
		b.t.Fatal(err)
	}
	var got *fakegithub.Delivery
	for _, d := range b.fake.TakeOutbox() {
		if d.Event == "repository_dispatch" {
			got = &d
		}
	}
	if got == nil {
		b.t.Fatal("the dispatch made no repository_dispatch delivery")
	}
	return b.ok("repository_dispatch", b.eventFile(*got))
}

// writesSince counts the requests after the first before that were not reads.
func (b *bench) writesSince(before int) int {
	n := 0
	for _, r := range b.fake.Requests()[before:] {
		if r.Method != http.MethodGet {
			n++
		}
	}
	return n
}

// TestAnAgentInAWorkflowAsksFollowsUpAndResolvesByDispatch: an agent holding its
// workflow's token asks, follows up and resolves through repository_dispatch; each is
// mirrored and taken as github-actions[bot]'s, and maria's answers reach it.
func TestAnAgentInAWorkflowAsksFollowsUpAndResolvesByDispatch(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	r := b.agentDispatch(map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Per API key or per client IP?"})
	c := b.clar("CLR-42-001")
	if c.Status != clarify.Pending || c.Asker.Login != fakegithub.ActionsBotLogin {
		t.Fatalf("after the agent's dispatch (%s): %+v\n%s", r.stdout, c, b.fake.Transcript(repo, 42))
	}
	if b.botComments("via `repository_dispatch`") != 1 || b.botComments("round 1/5") != 1 || b.botComments("@maria") == 0 {
		t.Fatalf("the ask was not mirrored and asked of maria:\n%s", b.fake.Transcript(repo, 42))
	}
	b.comment("maria", "Per API key.")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("maria's answer: %s", c.Status)
	}
	runOwnWakeUps(t, b)
	b.agentDispatch(map[string]any{"issue": 42, "action": "followup", "id": "CLR-42-001", "question": "100 or 1000 a minute?"})
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || c.Round != 2 {
		t.Fatalf("the agent's follow-up: %s in round %d", c.Status, c.Round)
	}
	b.comment("maria", "1000.")
	b.agentDispatch(map[string]any{"issue": 42, "action": "resolve", "id": "CLR-42-001", "decision": "1000 a minute per API key."})
	if c := b.clar("CLR-42-001"); c.Status != clarify.Resolved || c.Resolution != "1000 a minute per API key." {
		t.Fatalf("the agent's resolve: %+v", c)
	}
	wakes := clarifysWakeUps(b)
	if want := "[clarify-answered CLR-42-001 answered 1 clarify-answered CLR-42-001 answered 2 clarify-resolved CLR-42-001 resolved 2]"; fmt.Sprint(wakes) != want {
		t.Errorf("Clarify's wake-ups: %q", wakes)
	}
}

// runOwnWakeUps runs Clarify on each wake-up it sent: the dispatch starts the agent's
// workflow, and Clarify's too, where it is not a "clarify" dispatch and does nothing.
func runOwnWakeUps(t *testing.T, b *bench) {
	t.Helper()
	for _, d := range b.fake.TakeOutbox() {
		if d.Event == "repository_dispatch" {
			if r := b.ok(d.Event, b.eventFile(d)); r.requests != 0 {
				t.Errorf("Clarify's own wake-up made its run send %d requests", r.requests)
			}
		}
	}
}

// clarifysWakeUps are the repository dispatches Clarify sent, without the agent's own.
func clarifysWakeUps(b *bench) []string {
	var wakes []string
	for _, w := range b.wakeUps() {
		if !strings.HasPrefix(w, "clarify ") {
			wakes = append(wakes, w)
		}
	}
	return wakes
}

// TestAnAgentsCommentIsTakenByTheNextScheduledRun: an agent's /clarify comment made with
// its workflow's token starts no run of Clarify's; the next scheduled run takes it, and
// later its resolve, as github-actions[bot]'s.
func TestAnAgentsCommentIsTakenByTheNextScheduledRun(t *testing.T) {
	b := newBench(t)
	b.workflowComment("/clarify @maria Per API key or per client IP?")
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	c := b.clar("CLR-42-001")
	if c.Status != clarify.Pending || c.Asker.Login != fakegithub.ActionsBotLogin || b.botComments("round 1/5") != 1 {
		t.Fatalf("after the scheduled run: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
	b.comment("maria", "Per API key.")
	b.workflowComment("/clarify resolve CLR-42-001 Per API key.")
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Resolved || b.labels() != "" {
		t.Fatalf("after the agent's resolve and the scheduled run: %+v, labels %q", c, b.labels())
	}
}

// TestAnotherWorkflowsOrdinaryCommentChangesNothing: a CI report posted by another
// workflow, as github-actions[bot], in an issue waiting on maria answers nothing: neither
// the run of its event (were one started) nor the scheduled run writes in the issue.
func TestAnotherWorkflowsOrdinaryCommentChangesNothing(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	status := b.statusBody()
	before := len(b.fake.Requests())
	d, _ := b.fake.Comment(repo, 42, fakegithub.ActionsBotLogin, "CI passed on main.")
	r := b.ok("issue_comment", b.eventFile(d))
	if w := b.writesSince(before); w != 0 || !strings.Contains(r.stdout, "Nothing to do") {
		t.Errorf("the run for another workflow's comment made %d writes: %s", w, r.stdout)
	}
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending || b.statusBody() != status || len(b.fake.Comments(repo, 42)) != 3 {
		t.Fatalf("another workflow's comment changed the issue: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
}

// TestTheWorkflowAccountHasTheStandingOfABotWithoutWriteAccess: github-actions[bot] is
// every workflow's, some started by outsiders, so it answers nobody's question for them:
// its plain reply is no answer and its /respond to a question for maria is refused.
func TestTheWorkflowAccountHasTheStandingOfABotWithoutWriteAccess(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	b.workflowComment("Per client IP.")
	b.workflowComment("/respond CLR-42-001 Per client IP.")
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("github-actions[bot] answered for maria: %+v", c)
	}
	if b.botComments("only they or someone with write access can answer it") != 1 {
		t.Errorf("the /respond was not refused:\n%s", b.fake.Transcript(repo, 42))
	}
}

// statusBody is the body of Clarify's status comment in #42.
func (b *bench) statusBody() string {
	b.t.Helper()
	for _, c := range b.fake.Comments(repo, 42) {
		if c.User == fakegithub.ActionsBotLogin && render.IsStatus(c.Body) {
			return c.Body
		}
	}
	b.t.Fatal("no status comment in #42")
	return ""
}

// TestAnAgentInAWorkflowAnswersWhatIsAddressedToIt: a question a maintainer addresses to
// a role whose member is github-actions[bot] is answered by the agent's respond dispatch.
func TestAnAgentInAWorkflowAnswersWhatIsAddressedToIt(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "roles:\n  ci: [\"github-actions[bot]\"]\n")
	b.comment("maria", "/clarify ci Which runner image do the nightly builds use?")
	b.agentDispatch(map[string]any{"issue": 42, "action": "respond", "id": "CLR-42-001", "answer": "ubuntu-24.04"})
	c := b.clar("CLR-42-001")
	if c.Status != clarify.Answered || c.Thread[len(c.Thread)-1].Author != fakegithub.ActionsBotLogin {
		t.Fatalf("the agent's answer: %+v\n%s", c, b.fake.Transcript(repo, 42))
	}
}
