package main

import (
	"context"
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/askmcp"
)

// askerDoor is bot's way into the asker's client: the caller's token from GITHUB_TOKEN,
// GH_TOKEN or gh; whom to believe is found in each repository (no ledger key: the asker
// never holds one).
func askerDoor(stdout, stderr io.Writer) asker.Door {
	return asker.Door{Prog: "bot", Stdout: stdout, Stderr: stderr, DefaultSlug: app.DefaultAppSlug,
		Env: asker.Env{Getenv: os.Getenv, Token: func() (string, string, error) { return asker.TokenFromEnv(os.Getenv) }}}
}

// mcpCmd runs bot mcp: the asker's client as an MCP server on stdin and stdout.
func mcpCmd(args []string, stdout, stderr io.Writer) int {
	return askerDoor(stdout, stderr).Serve(args, func(ctx context.Context, c *asker.Client, dispatch bool, clientErr error) error {
		cfg := askmcp.Config{Client: c, ClientErr: clientErr, Dispatch: dispatch, Version: versionLine()}
		cfg.Repo, cfg.RepoErr = asker.RepoFromEnv(os.Getenv, ".")
		return askmcp.New(cfg).Run(ctx, askmcp.Stdio(os.Stdin, os.Stdout))
	})
}

// askerCommands are the asker's commands, each with its own exit codes.
var askerCommands = map[string]func(asker.Door, []string) int{
	"ask": asker.Door.Ask, "wait": asker.Door.Wait, "status": asker.Door.Status,
	"resolve": asker.Door.Resolve, "followup": asker.Door.Followup, "abandon": asker.Door.Abandon,
	"mcp": func(d asker.Door, args []string) int { return mcpCmd(args, d.Stdout, d.Stderr) },
}
