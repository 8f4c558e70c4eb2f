// Command gh-clarify is the GitHub CLI extension `gh clarify ask|wait|status|resolve|followup|abandon|ledger|stats`:
// the asker's commands (internal/asker, the same as bot's) with gh's own login and host.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cli/go-gh/v2/pkg/auth"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/ghtransport"
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
		host, _ := auth.DefaultHost()
		return cmd(door(host, stdout, stderr), args[1:])
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "gh clarify: unknown command %q\n%s", args[0], usage)
	return 2
}

// door is the asker's client with gh's token for host, and host's API unless
// GITHUB_API_URL (set in every Actions job) names one.
func door(host string, stdout, stderr io.Writer) asker.Door {
	getenv := func(k string) string {
		if v := os.Getenv(k); v != "" || k != "GITHUB_API_URL" {
			return v
		}
		return apiOf(host)
	}
	token := func() (string, string, error) {
		if t, source := auth.TokenForHost(host); t != "" {
			return t, source, nil
		}
		return "", "", errors.New("not logged in to " + host + ": run gh auth login")
	}
	return asker.Door{Prog: "gh clarify", Stdout: stdout, Stderr: stderr, DefaultSlug: ledger.DefaultAppSlug,
		Env: asker.Env{Getenv: getenv, Token: token}}
}

// apiOf is the REST API of a gh host, as gh reaches it: api.github.com, HOST/api/v3/ for
// GitHub Enterprise Server, api.HOST for GitHub Enterprise Cloud with data residency.
func apiOf(host string) string {
	switch h := auth.NormalizeHostname(host); {
	case h == "github.com":
		return ghtransport.DefaultAPIURL
	case auth.IsEnterprise(h):
		return "https://" + strings.ToLower(host) + "/api/v3/"
	default:
		return "https://api." + strings.ToLower(host) + "/"
	}
}
