package fakegithub

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
)

// TestWorkflowTokenReachesOneRepositoryAndWritesAsGitHubActions: a GITHUB_TOKEN, as GitHub
// gives a job, sees only its repository, and its comments are github-actions[bot]'s.
func TestWorkflowTokenReachesOneRepositoryAndWritesAsGitHubActions(t *testing.T) {
	f := newFixture(t)
	f.s.AddInstallation(2, "octo", "octo/gadgets")
	f.s.AddTeamMember("octo", "architects", "alice")
	c := tokenClient(t, f.srv.URL, f.s.WorkflowToken(testRepo))
	cm, _, err := c.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("hello")})
	if err != nil {
		t.Fatal(err)
	}
	if u := cm.GetUser(); u.GetLogin() != ActionsBotLogin || u.GetID() != ActionsBotID || u.GetType() != "Bot" {
		t.Errorf("comment by %s (%d, %s), want github-actions[bot]", u.GetLogin(), u.GetID(), u.GetType())
	}
	f.s.OpenIssue("octo/gadgets", 1, "Elsewhere", "alice")
	if _, resp, err := c.Issues.Get(f.ctx, "octo", "gadgets", 1); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("another repository answered %v, want 404", err)
	}
	if _, resp, err := c.Teams.GetTeamMembershipBySlug(f.ctx, "octo", "architects", "alice"); err == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("team membership through GITHUB_TOKEN answered %v, want 403", err)
	}
}

func TestPersonalTokenReachesOneRepositoryAndWritesAsItsUser(t *testing.T) {
	f := newFixture(t)
	f.s.AddInstallation(2, "octo", "octo/gadgets")
	c := tokenClient(t, f.srv.URL, f.s.PersonalToken(testRepo, "coder-agent"))
	cm, _, err := c.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("/clarify @maria Why?")})
	if err != nil {
		t.Fatal(err)
	}
	if got := cm.GetUser().GetLogin(); got != "coder-agent" {
		t.Errorf("comment by %s, want coder-agent", got)
	}
	if out := f.s.TakeOutbox(); len(out) == 0 || out[len(out)-1].Event != "issue_comment" {
		t.Errorf("the comment's deliveries: %+v; want an issue_comment for the apps", out)
	}
	f.s.OpenIssue("octo/gadgets", 1, "Elsewhere", "alice")
	if _, resp, err := c.Issues.Get(f.ctx, "octo", "gadgets", 1); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("another repository answered %v, want 404", err)
	}
}

func TestDispatchesAreRecordedAndBoundedAsOnGitHub(t *testing.T) {
	f := newFixture(t)
	raw := json.RawMessage(`{"issue":42,"id":"CLR-42-001"}`)
	_, resp, err := f.client.Repositories.Dispatch(f.ctx, "octo", "widgets", github.DispatchRequestOptions{EventType: "clarify-answered", ClientPayload: &raw})
	if err != nil {
		t.Fatal(err)
	}
	if resp != nil && resp.StatusCode != http.StatusNoContent {
		t.Errorf("status %d, want 204", resp.StatusCode)
	}
	sent := f.s.Dispatches(testRepo)
	if len(sent) != 1 || sent[0].EventType != "clarify-answered" || string(sent[0].ClientPayload) != string(raw) || sent[0].Sender != f.s.BotLogin() {
		t.Fatalf("dispatches = %+v", sent)
	}
	if out := f.s.TakeOutbox(); len(out) != 1 || out[0].Event != "repository_dispatch" || !strings.Contains(string(out[0].Body), `"action":"clarify-answered"`) {
		t.Errorf("outbox = %+v, want the repository_dispatch delivery", out)
	}
	eleven := json.RawMessage(`{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1}`)
	for _, opt := range []github.DispatchRequestOptions{{EventType: ""}, {EventType: strings.Repeat("x", 101)}, {EventType: "x", ClientPayload: &eleven}} {
		if _, resp, err := f.client.Repositories.Dispatch(f.ctx, "octo", "widgets", opt); err == nil || resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("dispatch %q with %d bytes of payload: %v, want 422", opt.EventType, len(eleven), err)
		}
	}
	if n := len(f.s.Dispatches(testRepo)); n != 1 {
		t.Errorf("%d dispatches recorded, want the refused ones left out", n)
	}
}
