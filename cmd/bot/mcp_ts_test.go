package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tsClient is the official TypeScript MCP SDK's client (internal/askmcp/testdata/tsclient)
// driving the built bot mcp: node and the package's node_modules (npm ci) are needed; a
// machine without them skips, CI fails.
func tsClient(t *testing.T, w *mcpWorld, mode string) *bufio.Scanner {
	t.Helper()
	dir, _ := filepath.Abs("../../internal/askmcp/testdata/tsclient")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	if nodeErr != nil || modErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the TypeScript SDK's client cannot run (node: %v; node_modules: %v): run npm ci --prefix %s", nodeErr, modErr, dir)
		}
		t.Skipf("the TypeScript SDK's client is not installed (npm ci --prefix %s)", dir)
	}
	cmd := exec.Command("node", filepath.Join(dir, "client.mjs"), builtBot(t), mode)
	cmd.Env, cmd.Stderr = w.env(), os.Stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return bufio.NewScanner(out)
}

// tsStep is one line the TypeScript client prints: a call's result and what it took.
type tsStep struct {
	Step     string         `json:"step"`
	MS       int            `json:"ms"`
	IsError  bool           `json:"isError"`
	Thrown   string         `json:"thrown"`
	Text     string         `json:"text"`
	Record   map[string]any `json:"record"`
	Progress []string       `json:"progress"`
	Errors   []tsStep       `json:"errors"`
	Name     string         `json:"name"`
	Tools    []string       `json:"tools"`
}

func nextStep(t *testing.T, sc *bufio.Scanner, want string) tsStep {
	t.Helper()
	if !sc.Scan() {
		t.Fatalf("the TypeScript client ended before its %s step", want)
	}
	var s tsStep
	if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Step != want {
		t.Fatalf("the TypeScript client printed %s; want its %s step", sc.Bytes(), want)
	}
	return s
}

func TestMCPWithTheTypeScriptSDKsClient(t *testing.T) {
	w, _, _ := newProcessWorld(t, true)
	sc := tsClient(t, w, "loop")
	ask := nextStep(t, sc, "ask")
	if ask.Record["id"] != "CLR-42-001" || ask.Record["status"] != "pending" {
		t.Fatalf("clarify_ask: %+v; want CLR-42-001 pending", ask)
	}
	time.Sleep(12 * time.Second) // maria takes a while: the wait sends progress meanwhile
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "maria", "b) per client IP")
	w.deliver(d)
	wait := nextStep(t, sc, "wait")
	t.Logf("TypeScript client: clarify_wait returned after %d ms with %d progress notifications %q", wait.MS, len(wait.Progress), wait.Progress)
	if wait.Record["status"] != "answered" || len(wait.Progress) == 0 {
		t.Errorf("clarify_wait: %+v; want answered, with progress while waiting", wait)
	}
	if res := nextStep(t, sc, "resolve"); res.Record["status"] != "resolved" {
		t.Errorf("clarify_resolve: %+v; want resolved", res)
	}
	for _, e := range nextStep(t, sc, "bad").Errors {
		if !e.IsError && e.Thrown == "" {
			t.Errorf("%s with a bad argument: %+v; want an error", e.Name, e)
		}
	}
	if list := nextStep(t, sc, "list"); len(list.Tools) != 8 {
		t.Errorf("tools/list after the bad calls: %v; want the eight tools", list.Tools)
	}
	if n := len(w.h.Fake.Comments("octo/widgets", 42)); n > 6 {
		t.Errorf("%d comments in the issue; want only the loop's (the bad calls post nothing)", n)
	}
}

func TestMCPWithTheTypeScriptSDKsClientClarifyStopped(t *testing.T) {
	w, _, _ := newProcessWorld(t, false)
	ask := nextStep(t, tsClient(t, w, "posted"), "ask")
	t.Logf("TypeScript client: clarify_ask with Clarify stopped returned after %d ms: %s", ask.MS, strings.TrimSpace(ask.Text))
	if ask.Thrown != "" || ask.Record["status"] != "posted" || ask.Record["ref"] != "step-9" || ask.MS > 30_000 {
		t.Errorf("clarify_ask with Clarify stopped: %+v; want the posted record with its ref within 30 s", ask)
	}
}
