package askmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/manual"
)

var update = flag.Bool("update", false, "rewrite testdata/tools/*.json and docs/mcp.md from the tools as listed")

// regen is how the snapshots and docs/mcp.md are made again.
const regen = "go test ./internal/askmcp -run 'TestToolSchemas|TestMCPManual' -update"

// TestToolSchemasAreTheirSnapshots: each tool as a client lists it (name, title,
// description, annotations, input and output schema) is its snapshot in testdata/tools,
// so a change to a tool shows in review as a change to its file; a snapshot of a tool no
// longer listed fails too.
func TestToolSchemasAreTheirSnapshots(t *testing.T) {
	tools, err := Listed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		b, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name+".json")
		if err := manual.Check(filepath.Join("testdata", "tools", tool.Name+".json"), append(b, '\n'), *update, regen); err != nil {
			t.Error(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "tools", "*.json"))
	for _, f := range files {
		if !slices.Contains(names, filepath.Base(f)) {
			t.Errorf("%s is the snapshot of a tool bot mcp does not list: remove it", f)
		}
	}
}

// TestMCPManualIsTheTools: docs/mcp.md is what the tools say of themselves as listed.
func TestMCPManualIsTheTools(t *testing.T) {
	tools, err := Listed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(manual.Generated(regen))
	b.WriteString(mcpIntro)
	manual.Prose(&b, Instructions)
	if err := Manual(&b, tools, "../internal/askmcp/testdata/tools"); err != nil {
		t.Fatal(err)
	}
	if err := manual.Check("../../docs/mcp.md", bytes.TrimRight(b.Bytes(), "\n"), *update, regen); err != nil {
		t.Error(err)
	}
}

var mcpIntro = strings.ReplaceAll(`
# MCP tools: bot mcp

The tools `+"`bot mcp`"+` serves to an agent's MCP client, as the server lists them
(`+"`tools/list`"+`): each tool's title, description, annotations, and the fields of its input and
of its result, from its schemas. How to set a client up is in
[asking.md](asking.md#bot-mcp-for-agents-that-speak-mcp); what each field of a record means is
in [agents.md](agents.md#outcomes-as-data-records). The server's instructions to the model:

`, "\t", "")
