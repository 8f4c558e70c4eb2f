// Package ghclarify is the GitHub CLI extension `gh clarify`'s command table: the asker's
// commands (internal/asker) and the read commands (internal/readcmd), the same as bot's,
// with gh's own login and host. cmd/gh-clarify runs it; the manual (docs/cli.md) is made
// from it.
package ghclarify

import (
	"errors"
	"os"
	"slices"

	"github.com/cli/go-gh/v2/pkg/auth"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/readcmd"
	"github.com/clarify-app/clarify/ledger"
)

// Program is the command table: the asker's commands and the read commands, as bot has
// them, read with gh's login.
var Program = cli.Program{Name: "gh clarify", Head: "usage: gh clarify <command> [flags]\n",
	Foot:     "gh's login and host are used (gh auth login; GH_HOST); gh clarify <command> -h says more.\n",
	Commands: slices.Concat(asker.Commands(door), readcmd.Commands(door.Reach()))}

// door is the asker's client with gh's token for the host whose API it reaches: GITHUB_API_URL's
// (set in every Actions job), else GH_HOST's, else gh's default host's (asker.APIFromEnv).
var door = asker.Door{Prog: "gh clarify", DefaultSlug: ledger.DefaultAppSlug, Env: asker.Env{Getenv: getenv, Token: token}}

// getenv is the environment, with gh's default host where neither GH_HOST nor
// GITHUB_API_URL names one.
func getenv(k string) string {
	v := os.Getenv(k)
	if k == "GH_HOST" && v == "" && os.Getenv("GITHUB_API_URL") == "" {
		v, _ = auth.DefaultHost() // the one host gh is logged in to, else github.com
	}
	return v
}

// token is gh's token for the API's host.
func token() (string, string, error) {
	_, host, err := asker.APIFromEnv(getenv)
	if err != nil {
		return "", "", err
	}
	if t, source := auth.TokenForHost(host); t != "" {
		return t, source, nil
	}
	return "", "", errors.New("not logged in to " + host + ": run gh auth login --hostname " + host)
}
