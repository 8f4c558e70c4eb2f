// Command workflows writes each workflow example of the README and docs/*.md to a
// directory, one file a block, for .ci/run to give actionlint. Each file is named after
// its page and starts with blank lines up to the block's place, so that actionlint's
// line numbers are the page's.
//
//	go run ./internal/doccheck/workflows DIR    (from the repository's root)
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clarify-app/clarify/internal/doccheck"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/doccheck/workflows DIR")
		os.Exit(2)
	}
	n, err := write(".", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "workflows:", err)
		os.Exit(1)
	}
	fmt.Printf("%d workflow examples written to %s\n", n, os.Args[1])
}

// write puts every workflow block of root's pages in dir and says how many.
func write(root, dir string) (int, error) {
	pages, err := doccheck.Pages(root)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			return n, err
		}
		rel, _ := filepath.Rel(root, page)
		for _, b := range doccheck.Blocks(string(src)) {
			if b.Lang != "yaml" || !doccheck.IsWorkflow(b.Text) {
				continue
			}
			name := fmt.Sprintf("%s-L%d.yml", strings.ReplaceAll(rel, string(filepath.Separator), "_"), b.Line)
			// The block's first line is the page's line b.Line+1.
			body := strings.Repeat("\n", b.Line) + b.Text
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
