package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolErr calls a tool that must fail and returns its error text.
func (w *mcpWorld) toolErr(name string, args map[string]any) string {
	w.t.Helper()
	res, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		w.t.Fatalf("%s %v: %v; want a tool error", name, args, err)
	}
	if !res.IsError {
		w.t.Fatalf("%s %v: %v; want a tool error", name, args, res.StructuredContent)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func TestMCPTheAgentsLoopAskWaitResolve(t *testing.T) {
	w := newMCPWorld(t)
	rec := w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key or per client IP?",
		"options": []string{"per API key", "per client IP"}})
	if rec["id"] != "CLR-42-001" || !strings.HasPrefix(rec["ref"].(string), "ask-") || rec["next"] == "" {
		t.Fatalf("clarify_ask without a ref: %v; want CLR-42-001 with a ref made for it and a next step", rec)
	}
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "maria", "b")
	w.deliver(d)
	rec = w.call("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 10})
	if rec["status"] != "answered" || rec["answer"] != "b" {
		t.Fatalf("clarify_wait after maria's reply: %v; want answered b", rec)
	}
	rec = w.call("clarify_resolve", map[string]any{"issue": 42, "id": "CLR-42-001", "decision": "Per client IP."})
	if rec["status"] != "resolved" || rec["decision"] != "Per client IP." {
		t.Errorf("clarify_resolve: %v; want resolved with the decision", rec)
	}
	if labels := w.h.Fake.IssueLabels("octo/widgets", 42); len(labels) != 0 {
		t.Errorf("labels after the resolve: %v; want none", labels)
	}
	again := w.toolErr("clarify_resolve", map[string]any{"issue": 42, "id": "CLR-42-001"})
	if !strings.HasPrefix(again, "already-settled") {
		t.Errorf("resolving it again: %q; want Clarify's code already-settled and its reason", again)
	}
}

func TestMCPFollowupThenAbandon(t *testing.T) {
	w := newMCPWorld(t)
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "maria", "Yes.")
	w.deliver(d)
	rec := w.call("clarify_followup", map[string]any{"issue": 42, "id": "CLR-42-001", "question": "How many a minute?"})
	if rec["status"] != "pending" || rec["round"] != float64(2) {
		t.Errorf("clarify_followup: %v; want round 2 pending", rec)
	}
	rec = w.call("clarify_abandon", map[string]any{"issue": 42, "id": "CLR-42-001"})
	if rec["status"] != "abandoned" {
		t.Errorf("clarify_abandon: %v; want abandoned", rec)
	}
}

func TestMCPBadArgumentsPostNothingAndTheServerStaysUp(t *testing.T) {
	w := newMCPWorld(t)
	before := len(w.h.Fake.Comments("octo/widgets", 42))
	long := strings.Repeat("x", 201)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"clarify_wait", map[string]any{"issue": 42, "id": ""}, "id"},
		{"clarify_wait", map[string]any{"issue": 42}, "give id"},
		{"clarify_wait", map[string]any{"issue": 42, "id": "CLR-7-001"}, "CLR-42-"},
		{"clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": -5}, "timeout_seconds"},
		{"clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 3600}, "timeout_seconds"},
		{"clarify_status", map[string]any{"issue": 0}, "issue"},
		{"clarify_status", map[string]any{"issue": 42, "repo": "no-slash"}, "repo"},
		{"clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Which?", "options": []string{"x", "y"}, "fallback": "c"}, "Fallback"},
		{"clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Which?", "ref": long}, "ref"},
		{"clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": ""}, "question"},
		{"clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": strings.Repeat("why ", 5000)}, "question"},
		{"clarify_ask", map[string]any{"issue": 42, "target": "@@maria", "question": "Which?"}, "target"},
		{"clarify_followup", map[string]any{"issue": 42, "id": "CLR-42-001"}, "question"},
		{"clarify_resolve", map[string]any{"issue": 42, "id": "clr-42"}, "id"},
	} {
		if got := w.toolErr(c.tool, c.args); !strings.Contains(got, c.want) {
			t.Errorf("%s %v: %q; want an error about %s", c.tool, c.args, got, c.want)
		}
	}
	if after := len(w.h.Fake.Comments("octo/widgets", 42)); after != before {
		t.Errorf("comments in the issue: %d after the bad calls, %d before; want nothing posted", after, before)
	}
	if _, err := w.session.ListTools(context.Background(), nil); err != nil {
		t.Errorf("tools/list after the bad calls: %v", err)
	}
}

func TestMCPAskClarifyNeverTakesComesBackPostedInTime(t *testing.T) {
	t.Parallel()
	w := newMCPWorldWith(t, worldOpts{})
	start := time.Now()
	rec := w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?", "ref": "step-7"})
	took := time.Since(start)
	t.Logf("clarify_ask with Clarify never taking it: returned after %s", took.Round(100*time.Millisecond))
	if rec["status"] != "posted" || rec["ref"] != "step-7" || took > 30*time.Second {
		t.Fatalf("clarify_ask not taken: %v after %s; want status posted with its ref, within 30 s", rec, took)
	}
	// Clarify comes back: the deliveries GitHub held are sent, and the ask is found by its ref.
	for _, d := range w.h.Fake.TakeOutbox() {
		w.deliver(d)
	}
	rec = w.call("clarify_wait", map[string]any{"issue": 42, "ref": "step-7", "timeout_seconds": 1})
	if rec["id"] != "CLR-42-001" || rec["status"] != "pending" {
		t.Errorf("clarify_wait by ref once Clarify took it: %v; want CLR-42-001 pending", rec)
	}
	recs := w.call("clarify_status", map[string]any{"issue": 42, "ref": "step-7"})
	if list, _ := recs["records"].([]any); len(list) != 1 {
		t.Errorf("clarify_status by ref: %v; want the one record", recs)
	}
}

func TestMCPWaitSendsProgress(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		notes []string
	)
	w := newMCPWorldWith(t, worldOpts{pump: true, client: &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, req.Params.Message)
		}}})
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	params := &mcp.CallToolParams{Name: "clarify_wait", Arguments: map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 25}}
	params.SetProgressToken("wait-1")
	start := time.Now()
	if _, err := w.session.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	t.Logf("clarify_wait of %s nobody answering: %d progress notifications (%.1f a minute): %q", took.Round(time.Second), len(notes),
		float64(len(notes))/took.Minutes(), notes)
	if len(notes) < 2 || !strings.Contains(notes[0], "CLR-42-001 pending: waiting on maria since") {
		t.Errorf("progress during a 25 s wait: %q; want one at least every 15 s, saying who is awaited since when", notes)
	}
}

func TestMCPCallsPastSixteenAtOnceAreRefused(t *testing.T) {
	w := newMCPWorld(t)
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	var busy atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "clarify_wait",
				Arguments: map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 3}})
			if err == nil && res.IsError && strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "busy:") {
				busy.Add(1)
			}
		}()
	}
	wg.Wait()
	if busy.Load() != 4 {
		t.Errorf("20 waits at once: %d refused as busy; want the 4 past 16", busy.Load())
	}
}

// rawServer is bot mcp on plain pipes, for what no SDK client sends: broken lines, and a
// cancellation it watches the answer to.
type rawServer struct {
	in    io.WriteCloser
	lines chan map[string]any
}

func startRaw(t *testing.T, env []string) *rawServer {
	cmd := exec.Command(builtBot(t), "mcp")
	cmd.Env, cmd.Stderr = env, os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	r := &rawServer{in: in, lines: make(chan map[string]any, 100)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			_ = json.Unmarshal(sc.Bytes(), &m)
			r.lines <- m
		}
		close(r.lines)
	}()
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r.next(t)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawServer) send(t *testing.T, line string) {
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next is the server's next message; nil when it said nothing for 8 s or ended.
func (r *rawServer) next(t *testing.T) map[string]any {
	select {
	case m := <-r.lines:
		return m
	case <-time.After(8 * time.Second):
		return nil
	}
}

func TestMCPBrokenLinesGetParseErrorsAndTheServerGoesOn(t *testing.T) {
	w := newMCPWorld(t)
	r := startRaw(t, w.env())
	for _, bad := range []string{"this is not json", `{"foo":1}`, "42", `{"jsonrpc":"2.0","id":9,"method":`} {
		r.send(t, bad)
		m := r.next(t)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32700) {
			t.Errorf("line %q: %v; want a JSON-RPC parse error", bad, m)
		}
	}
	r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := r.next(t); m == nil || m["id"] != float64(2) || m["result"] == nil {
		t.Errorf("tools/list after the broken lines: %v; want the list", m)
	}
}

func TestMCPACancelledCallGetsNoReply(t *testing.T) {
	w := newMCPWorld(t)
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?"})
	r := startRaw(t, w.env())
	r.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"clarify_wait","arguments":{"issue":42,"id":"CLR-42-001","timeout_seconds":4}}}`)
	time.Sleep(500 * time.Millisecond)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"the user pressed Esc"}}`)
	r.send(t, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"clarify_status","arguments":{"issue":42}}}`)
	for m := r.next(t); m != nil; m = r.next(t) {
		if m["id"] == float64(5) {
			t.Errorf("the cancelled call was answered: %v", m)
		}
		if m["id"] == float64(6) {
			if r.next(t) != nil {
				t.Errorf("more after the status call's answer")
			}
			return
		}
	}
	t.Error("no answer to the status call after the cancellation")
}

func TestMCPWithoutATokenStillServesAndSaysWhatIsMissing(t *testing.T) {
	w := newMCPWorld(t)
	var env []string
	for _, kv := range w.env() {
		if !strings.HasPrefix(kv, "GITHUB_TOKEN=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	r := startRaw(t, append(env, "PATH=/nonexistent")) // no gh to ask either
	r.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := r.next(t); m == nil || m["result"] == nil {
		t.Fatalf("tools/list without a token: %v; want the list", m)
	}
	r.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"clarify_status","arguments":{"issue":42}}}`)
	m := r.next(t)
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), "GITHUB_TOKEN") {
		t.Errorf("a call without a token: %s; want a tool error naming GITHUB_TOKEN", b)
	}
}
