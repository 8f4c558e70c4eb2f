package askmcp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestALineOverAMegabyteGetsAParseErrorAndTheNextIsRead(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"clarify_status","arguments":{"issue":1,"id":"` + strings.Repeat("x", 2<<20) + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}, "\n") + "\n"
	// The client keeps its end open, as a client does, until the last answer is in.
	pr, pw := io.Pipe()
	go func() { _, _ = io.WriteString(pw, in) }()
	out := &testenv.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = New(Config{Repo: "octo/widgets"}).Run(ctx, Stdio(pr, out)) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), `"id":3`) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// The parse error is written as the line is read, the answers as the server gets to
	// them: the order of the three is not fixed.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	joined := strings.Join(lines, "\n")
	if len(lines) != 3 || strings.Count(joined, `"code":-32700`) != 1 || !strings.Contains(joined, `"id":3`) || !strings.Contains(joined, `"id":1`) {
		t.Errorf("answers to initialize, a 2 MiB line and tools/list: %q; want the handshake, a parse error and the list", lines)
	}
}

func TestEveryToolHasATitleAndTheReadersAreReadOnly(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := New(Config{}).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	got := cs.InitializeResult()
	caps, _ := json.Marshal(got.Capabilities)
	if got.Instructions == "" || string(caps) != `{"tools":{}}` {
		t.Errorf("initialize: instructions %q, capabilities %s; want instructions, and tools only, with no listChanged", got.Instructions, caps)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	readOnly := map[string]bool{"clarify_wait": true, "clarify_status": true, "clarify_decisions": true, "clarify_inbox": true}
	for _, tool := range list.Tools {
		a := tool.Annotations
		if tool.Title == "" || a == nil || a.ReadOnlyHint != readOnly[tool.Name] || a.OpenWorldHint == nil || !*a.OpenWorldHint ||
			(a.DestructiveHint != nil && *a.DestructiveHint) != (tool.Name == "clarify_abandon") {
			t.Errorf("%s: title %q, annotations %+v", tool.Name, tool.Title, a)
		}
	}
}
