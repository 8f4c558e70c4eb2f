package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
)

// mcpWorld is the in-memory GitHub with the real app behind it, GitHub's deliveries sent
// to the app as they happen, and bot mcp running as its own process, driven by the MCP
// SDK's client over the process's stdin and stdout.
type mcpWorld struct {
	t       *testing.T
	h       *replay.Harness
	mu      sync.Mutex // one delivery at a time, as the harness takes them
	session *mcp.ClientSession
	// firstAnswer is the time from the process's start to its first tool answer.
	started, firstAnswer time.Time
}

var built struct {
	once sync.Once
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		_ = os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// builtBot builds the bot binary once for the tests that run it.
func builtBot(t *testing.T) string {
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "bot-mcp-test")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "bot")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func newMCPWorld(t *testing.T) *mcpWorld { return newMCPWorldWith(t, worldOpts{pump: true}) }

// worldOpts say how a test's world differs: pump false leaves GitHub's deliveries unsent,
// as when Clarify is down; client is the MCP client's options; setup, given the in-memory
// GitHub's URL, says the directory bot mcp runs in ("": the test's) and what env adds to
// (and over) its environment.
type worldOpts struct {
	pump   bool
	client *mcp.ClientOptions
	setup  func(url string) (dir string, env []string)
}

func newMCPWorldWith(t *testing.T, o worldOpts) *mcpWorld {
	w, bin, ctx := newProcessWorld(t, o.pump)
	cmd := exec.Command(bin, "mcp")
	cmd.Env = w.env()
	if o.setup != nil {
		dir, env := o.setup(w.h.GitHub.URL)
		cmd.Env, cmd.Dir = append(cmd.Env, env...), dir
	}
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-test", Version: "v0"}, o.client)
	w.started = time.Now()
	var err error
	w.session, err = client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.session.Close() })
	return w
}

// newProcessWorld is the in-memory GitHub with the real app behind it and an issue, with
// GitHub's deliveries sent to the app as they happen when pump is true, for a bot process
// (the binary built once) to run against until the test ends (ctx).
func newProcessWorld(t *testing.T, pump bool) (*mcpWorld, string, context.Context) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := builtBot(t)
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", "octo/widgets")
	h.Fake.AddUser("coder-agent", "User")
	h.Fake.SetPermission("octo/widgets", "coder-agent", "write")
	h.Fake.SetPermission("octo/widgets", "maria", "write")
	w := &mcpWorld{t: t, h: h}
	w.deliver(h.Fake.OpenIssue("octo/widgets", 42, "Rate limit", "maria"))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if pump {
		go w.pump(ctx)
	}
	return w, bin, ctx
}

// env is bot mcp's environment in the world: the agent's token, the fake's API.
func (w *mcpWorld) env() []string {
	return append(os.Environ(), "GITHUB_API_URL="+w.h.GitHub.URL+"/", "GITHUB_TOKEN="+w.h.Fake.PersonalToken("octo/widgets", "coder-agent"),
		"GH_TOKEN=", "CLARIFY_REPO=octo/widgets", "CLARIFY_APP_SLUG=clarify", "CLARIFY_LEDGER_KEY=", "GITHUB_APP_PRIVATE_KEY=",
		"GITHUB_APP_PRIVATE_KEY_FILE=", "GITHUB_ACTIONS=", "GH_HOST=")
}

// deliver sends one delivery to the app and waits until it has run.
func (w *mcpWorld) deliver(d fakegithub.Delivery) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.h.Deliver(context.Background(), d); err != nil {
		w.t.Error(err)
	}
}

// pump is GitHub sending what happened (the agent's comments) to the app.
func (w *mcpWorld) pump(ctx context.Context) {
	for ctx.Err() == nil {
		w.mu.Lock()
		out := w.h.Fake.TakeOutbox()
		w.mu.Unlock()
		for _, d := range out {
			w.deliver(d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// call calls a tool and returns its structured result, failing the test on a tool error.
func (w *mcpWorld) call(name string, args map[string]any) map[string]any {
	w.t.Helper()
	res, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if w.firstAnswer.IsZero() {
		w.firstAnswer = time.Now()
	}
	if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		w.t.Fatalf("%s: tool error %v", name, res.Content[0].(*mcp.TextContent).Text)
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		w.t.Fatalf("%s: structured result %s: %v", name, b, err)
	}
	return out
}

func TestMCPListsTheEightToolsWithTheirSchemas(t *testing.T) {
	w := newMCPWorld(t)
	tools, err := w.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"clarify_ask": {"issue", "target", "question"}, "clarify_wait": {"issue"},
		"clarify_status": {"issue"}, "clarify_decisions": nil, "clarify_resolve": {"issue", "id"},
		"clarify_followup": {"issue", "id", "question"}, "clarify_abandon": {"issue", "id"}, "clarify_inbox": nil}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(schema, &s)
		if !slices.Equal(s.Required, want[tool.Name]) || tool.OutputSchema == nil {
			t.Errorf("%s: input schema requires %v, output schema %v; want %v and a schema", tool.Name, s.Required, tool.OutputSchema != nil, want[tool.Name])
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"clarify_abandon", "clarify_ask", "clarify_decisions", "clarify_followup", "clarify_inbox",
		"clarify_resolve", "clarify_status", "clarify_wait"}) {
		t.Errorf("tools/list: %v", names)
	}
	t.Logf("bot mcp: %s from the process's start to its first answer (tools/list)", time.Since(w.started).Round(time.Millisecond))
}

func TestMCPAskThenAPersonsReplyThenWaitReturnsTheAnswer(t *testing.T) {
	w := newMCPWorld(t)
	const state = `{"session":"7f3a","note":"--> & \"quoted\""}`
	rec := w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key or per client IP?",
		"options": []string{"per API key", "per client IP"}, "ref": "run-981/step-3", "state": state})
	t.Logf("bot mcp: %s from the process's start to its first tool answer (clarify_ask, taken)", w.firstAnswer.Sub(w.started).Round(time.Millisecond))
	if rec["id"] != "CLR-42-001" || rec["status"] != "pending" || rec["ref"] != "run-981/step-3" {
		t.Fatalf("clarify_ask: %v; want CLR-42-001 pending, with its ref", rec)
	}
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "maria", "Per API key.")
	w.deliver(d)
	rec = w.call("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 10})
	if rec["status"] != "answered" || rec["answer"] != "Per API key." || rec["state"] != state {
		t.Errorf("clarify_wait after maria's reply: %v; want answered, Per API key., and the state byte for byte", rec)
	}
	recs := w.call("clarify_status", map[string]any{"issue": 42})
	if list, _ := recs["records"].([]any); len(list) != 1 {
		t.Errorf("clarify_status: %v; want the one record", recs)
	}
}

func TestMCPWaitNobodyAnswersReturnsTheOpenRecordInTime(t *testing.T) {
	w := newMCPWorld(t)
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	start := time.Now()
	rec := w.call("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 3})
	took := time.Since(start)
	t.Logf("clarify_wait with timeout_seconds 3, nobody answering: returned after %s", took.Round(time.Millisecond))
	if rec["status"] != "pending" || rec["outcome"] != nil {
		t.Errorf("clarify_wait nobody answers: %v; want the pending record, no outcome", rec)
	}
	res, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "clarify_status",
		Arguments: map[string]any{"issue": 42, "id": "CLR-42-404"}})
	if err != nil || !res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "unknown-clarification") {
		t.Errorf("clarify_status of an unknown id: %v %+v; want a tool error carrying unknown-clarification", err, res)
	}
}

// gitClone makes a git repository whose origin remote is remote, as a clone has it.
func gitClone(t *testing.T, remote string) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "origin", remote}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

// TestMCPTakesTheRemotesRepositoryOnTheAPIsHostOnly (issue 33): bot mcp, in a clone and
// with no CLARIFY_REPO, means the remote's repository only when the remote is on the host
// whose API it reaches (and the token is for): a remote on another host is a tool error
// naming both hosts, never that host's OWNER/REPO asked for on the API's.
func TestMCPTakesTheRemotesRepositoryOnTheAPIsHostOnly(t *testing.T) {
	var api string
	other := newMCPWorldWith(t, worldOpts{pump: true, setup: func(url string) (string, []string) {
		api = strings.TrimPrefix(url, "http://")
		return gitClone(t, "git@ghe.example.com:octo/widgets.git"), []string{"CLARIFY_REPO="}
	}})
	res, err := other.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "clarify_status", Arguments: map[string]any{"issue": 42}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "ghe.example.com") ||
		!strings.Contains(res.Content[0].(*mcp.TextContent).Text, api) {
		t.Errorf("clarify_status in a clone of ghe.example.com's repository, with %s's API: %v %+v; want a tool error naming both", api, err, res)
	}
	same := newMCPWorldWith(t, worldOpts{pump: true, setup: func(url string) (string, []string) {
		return gitClone(t, url+"/octo/widgets.git"), []string{"CLARIFY_REPO="}
	}})
	same.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	if recs := same.call("clarify_status", map[string]any{"issue": 42}); len(recs["records"].([]any)) != 1 {
		t.Errorf("clarify_status in a clone of the API's host's repository: %v; want its record", recs)
	}
}
