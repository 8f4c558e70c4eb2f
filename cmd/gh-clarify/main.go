// Command gh-clarify is the GitHub CLI extension `gh clarify ask|wait|status|resolve|followup|abandon|inbox|ledger|stats`:
// its command table is internal/ghclarify's.
package main

import (
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/ghclarify"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return ghclarify.Program.Run(args, cli.Std{In: os.Stdin, Out: stdout, Err: stderr})
}
