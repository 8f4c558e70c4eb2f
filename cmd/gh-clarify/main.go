// Command gh-clarify is the GitHub CLI extension `gh clarify ask|wait|status|resolve|followup|abandon|ledger|stats`:
// the asker's commands (internal/asker, the same as bot's) with gh's own login and host.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cli/go-gh/v2/pkg/auth"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/ledger"
)

const usage = `usage: gh clarify <command> [flags]

commands:
  ask      OWNER/REPO#N TARGET QUESTION  ask as an agent; prints the clarification's id
  wait     OWNER/REPO#N CLR-…            wait until it is answered or settled (or --ref R)
  status   OWNER/REPO#N [CLR-…]          the issue's clarifications (or --ref R)
  resolve  OWNER/REPO#N CLR-… [DECISION] settle your clarification
  followup OWNER/REPO#N CLR-… QUESTION   ask its next round
  abandon  OWNER/REPO#N CLR-…            withdraw it
  ledger OWNER/REPO#N                   the issue's whole ledger
  stats  OWNER/REPO                     a digest of the repository's clarifications

gh's login and host are used (gh auth login; GH_HOST); gh clarify <command> -h says more.
`

var commands = map[string]func(asker.Door, []string) int{
	"ask": asker.Door.Ask, "wait": asker.Door.Wait, "status": asker.Door.Status,
	"resolve": asker.Door.Resolve, "followup": asker.Door.Followup, "abandon": asker.Door.Abandon,
	"ledger": asker.Door.Ledger, "stats": asker.Door.Stats,
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, ok := commands[args[0]]
	switch {
	case ok:
		return cmd(door(stdout, stderr), args[1:])
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "gh clarify: unknown command %q\n%s", args[0], usage)
	return 2
}

// door is the asker's client with gh's token for the host whose API it reaches: GITHUB_API_URL's
// (set in every Actions job), else GH_HOST's, else gh's default host's (asker.APIFromEnv).
func door(stdout, stderr io.Writer) asker.Door {
	getenv := func(k string) string {
		v := os.Getenv(k)
		if k == "GH_HOST" && v == "" && os.Getenv("GITHUB_API_URL") == "" {
			v, _ = auth.DefaultHost() // the one host gh is logged in to, else github.com
		}
		return v
	}
	token := func() (string, string, error) {
		_, host, err := asker.APIFromEnv(getenv)
		if err != nil {
			return "", "", err
		}
		if t, source := auth.TokenForHost(host); t != "" {
			return t, source, nil
		}
		return "", "", errors.New("not logged in to " + host + ": run gh auth login --hostname " + host)
	}
	return asker.Door{Prog: "gh clarify", Stdout: stdout, Stderr: stderr, DefaultSlug: ledger.DefaultAppSlug,
		Env: asker.Env{Getenv: getenv, Token: token}}
}
