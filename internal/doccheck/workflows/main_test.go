package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkflowExamplesKeepTheirPagesLines: only workflow blocks are written, one file
// each, named after the page and line, with the block's lines at the page's line numbers,
// so that actionlint's messages point into the page.
func TestWorkflowExamplesKeepTheirPagesLines(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	readme := "# Title\n\n```yaml\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n```\n\n```yaml\nroles: {}\n```\n"
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := "# Page\n```yaml\n\"on\": workflow_dispatch\njobs: {}\n```\n"
	if err := os.WriteFile(filepath.Join(root, "docs", "page.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := write(root, out)
	if err != nil || n != 2 {
		t.Fatalf("write = %d, %v; want the 2 workflow blocks", n, err)
	}
	for _, want := range []struct {
		file string
		at   int
		line string
	}{{"README.md-L3.yml", 4, "on: push"}, {"docs_page.md-L2.yml", 3, `"on": workflow_dispatch`}} {
		b, err := os.ReadFile(filepath.Join(out, want.file))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if len(lines) < want.at || lines[want.at-1] != want.line {
			t.Errorf("%s: line %d is not %q:\n%s", want.file, want.at, want.line, b)
		}
	}
}
