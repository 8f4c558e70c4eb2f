package main

import (
	"context"
	"os"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/askmcp"
	"github.com/clarify-app/clarify/internal/cli"
)

// askerDoor is bot's way into the asker's client: the caller's token from GITHUB_TOKEN,
// GH_TOKEN or gh; whom to believe is found in each repository (no ledger key: the asker
// never holds one).
var askerDoor = asker.Door{Prog: "bot", DefaultSlug: app.DefaultAppSlug,
	Env: asker.Env{Getenv: os.Getenv, Token: func() (string, string, error) { return asker.TokenFromEnv(os.Getenv) }}}

// mcpCmd runs bot mcp: the asker's client as an MCP server on stdin and stdout.
func mcpCmd(args []string, std cli.Std) error {
	return cli.Code(askerDoor.With(std).Serve(args, func(ctx context.Context, c *asker.Client, dispatch bool, clientErr error) error {
		cfg := askmcp.Config{Client: c, ClientErr: clientErr, Dispatch: dispatch, Version: versionLine()}
		cfg.Repo, cfg.RepoErr = asker.RepoFromEnv(os.Getenv, ".")
		return askmcp.New(cfg).Run(ctx, askmcp.Stdio(std.In, std.Out))
	}))
}
