package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// agentRepo is a repository where an agent runs in a workflow beside Clarify's: both hold
// a GITHUB_TOKEN, so both write as github-actions[bot]; each event is one `bot action`
// process of the built binary.
type agentRepo struct {
	t    *testing.T
	bin  string
	dir  string
	fake *fakegithub.Server
	url  string
	runs int
}

const agentKey = "agent-test-ledger-key-of-forty-characters"

func newAgentRepo(t *testing.T) *agentRepo {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fake := fakegithub.New(fakegithub.Options{Now: time.Now}) // the process reads the wall clock
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("maria", "User")
	fake.SetPermission("octo/widgets", "maria", "write")
	fake.OpenIssue("octo/widgets", 42, "Rate limits", "maria")
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return &agentRepo{t: t, bin: bin, dir: dir, fake: fake, url: srv.URL}
}

// agent is the agent's workflow run: a client with a GITHUB_TOKEN of its own.
func (a *agentRepo) agent() *github.Client {
	client := github.NewClient(nil).WithAuthToken(a.fake.WorkflowToken("octo/widgets"))
	client.BaseURL, _ = url.Parse(a.url + "/")
	return client
}

// action runs Clarify's workflow step for one event, as a process, and returns its output.
func (a *agentRepo) action(event string, payload []byte) string {
	a.t.Helper()
	var p map[string]any
	if err := json.Unmarshal(payload, &p); err != nil {
		a.t.Fatal(err)
	}
	delete(p, "installation") // a workflow's payload carries none
	raw, _ := json.Marshal(p)
	a.runs++
	path := filepath.Join(a.dir, "event-"+strconv.Itoa(a.runs)+".json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		a.t.Fatal(err)
	}
	cmd := exec.Command(a.bin, "action")
	cmd.Env = append(os.Environ(), "GITHUB_EVENT_NAME="+event, "GITHUB_EVENT_PATH="+path,
		"GITHUB_REPOSITORY=octo/widgets", "GITHUB_API_URL="+a.url, "GITHUB_TOKEN="+a.fake.WorkflowToken("octo/widgets"),
		"CLARIFY_LEDGER_KEY="+agentKey, "GITHUB_RUN_ID="+strconv.Itoa(7000+a.runs), "GITHUB_STEP_SUMMARY=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		a.t.Fatalf("bot action on %s: %v\n%s", event, err, out)
	}
	return string(out)
}

// clar is CLR-42-001 as Clarify's status comment holds it.
func (a *agentRepo) clar() clarify.Clarification {
	a.t.Helper()
	for _, c := range a.fake.Comments("octo/widgets", 42) {
		if c.User != fakegithub.ActionsBotLogin || !render.IsStatus(c.Body) {
			continue
		}
		l, err := render.DecodeLedger(c.Body, ledger.IssueLedgerKey([]byte(agentKey), "octo", "widgets", 42))
		if cl, ok := l.Find("CLR-42-001"); err == nil && ok {
			return cl
		}
	}
	a.t.Fatalf("no status comment holds CLR-42-001:\n%s", a.fake.Transcript("octo/widgets", 42))
	return clarify.Clarification{}
}

// TestAnAgentInAWorkflowThroughTheBinary: the agent's dispatch ask is asked, mirrored and
// answered, one process per event; its /clarify comment, for which GitHub starts no run,
// is taken by the next scheduled run.
func TestAnAgentInAWorkflowThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	a := newAgentRepo(t)
	msg := json.RawMessage(`{"issue": 42, "action": "ask", "target": "@maria", "question": "Per API key or per client IP?"}`)
	if _, _, err := a.agent().Repositories.Dispatch(context.Background(), "octo", "widgets",
		github.DispatchRequestOptions{EventType: "clarify", ClientPayload: &msg}); err != nil {
		t.Fatal(err)
	}
	for _, d := range a.fake.TakeOutbox() {
		a.action(d.Event, d.Body)
	}
	if c := a.clar(); c.Status != clarify.Pending || c.Asker.Login != fakegithub.ActionsBotLogin {
		t.Fatalf("the agent's dispatch: %+v", c)
	}
	d, _ := a.fake.Comment("octo/widgets", 42, "maria", "Per API key.")
	a.action(d.Event, d.Body)
	if c := a.clar(); c.Status != clarify.Answered {
		t.Fatalf("maria's answer: %s", c.Status)
	}
	body := "/clarify resolve CLR-42-001 Per API key."
	if _, _, err := a.agent().Issues.CreateComment(context.Background(), "octo", "widgets", 42, &github.IssueComment{Body: &body}); err != nil {
		t.Fatal(err)
	}
	a.fake.TakeOutbox() // GitHub starts no workflow for a comment made with a GITHUB_TOKEN
	out := a.action("schedule", []byte(`{"schedule": "*/15 * * * *"}`))
	if c := a.clar(); c.Status != clarify.Resolved || c.Resolution != "Per API key." {
		t.Fatalf("the scheduled run after the agent's resolve: %+v\n%s", c, out)
	}
	if n := strings.Count(a.fake.Transcript("octo/widgets", 42), "via `repository_dispatch`"); n != 1 {
		t.Errorf("%d mirrors of the dispatch, want 1", n)
	}
}
