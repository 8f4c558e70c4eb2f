package asker

import (
	"cmp"
	"context"
	"fmt"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
)

const mcpSummary = "Serve the asker's tools to an agent over MCP on stdin and stdout."

const mcpDetails = `Serves the asker's tools over MCP on stdin and stdout (clarify_ask, clarify_wait,
clarify_status, clarify_decisions, clarify_resolve, clarify_followup, clarify_abandon,
clarify_inbox), for an agent's MCP client: Claude Code, Codex, VS Code, Cursor. The token, the app and the keys
are found as for bot ask; a call that names no repo means CLARIFY_REPO, else the working
directory's git remote. Without a token the server still starts, and each call says what
is missing. --check prints what the server would use and exits: 0 ready, 1 not.`

// MCPExits are bot mcp's exit codes beyond every command's: --check's.
var MCPExits = []cli.ExitCode{
	{Code: cli.ExitOK, Means: "the client disconnected; with --check: ready"},
	{Code: cli.ExitError, Means: "failed; with --check: not ready, and what is missing is printed"},
}

// Serve runs `mcp`: it builds the client as the other commands do and hands it to serve
// (the MCP server, which cmd wires in) until the client disconnects or Ctrl-C. A client
// that cannot be built (no token) is handed over as its error: the server still answers
// the handshake and says what is missing in each call, where a client shows it, rather
// than exit before the handshake, which a client shows only as "failed to start".
func (d Door) Serve(args []string, serve func(ctx context.Context, c *Client, dispatch bool, clientErr error) error) int {
	c := d.flags("mcp", mcpSummary, "mcp [flags]", mcpDetails)
	check := c.Flags.Bool("check", false, "print what the server would use (token, repository, the account it believes) and exit: 0 ready, 1 not")
	pos, err := c.Parse(args, d.Stdout)
	if err == nil && len(pos) > 0 {
		err = c.Usagef("bot mcp takes no arguments")
	}
	if err != nil {
		return d.exit("mcp", err)
	}
	cl, noRun, clientErr := d.client(c)
	if *check {
		return d.checkServe(c, cl, clientErr)
	}
	ctx, stop := signalContext()
	defer stop()
	return d.exit("mcp", serve(ctx, cl, noRun, clientErr))
}

// checkServe prints what `bot mcp` would run with, for a person setting a client up: a
// client shows a server's stderr seldom and late.
func (d Door) checkServe(c common, cl *Client, clientErr error) int {
	_, source, _ := d.Env.Token()
	repo, repoErr := RepoFromEnv(d.Env.Getenv, ".")
	api, _, apiErr := APIFromEnv(d.Env.Getenv)
	if apiErr != nil {
		api = "none: " + apiErr.Error()
	}
	if repoErr != nil {
		repo = "none: " + repoErr.Error()
	}
	fmt.Fprintf(d.Stdout, "api:        %s\n", api)
	fmt.Fprintf(d.Stdout, "token:      %s\n", cmp.Or(source, "none"))
	fmt.Fprintf(d.Stdout, "repository: %s\n", cmp.Or(repo, "none: each call must name repo (set CLARIFY_REPO, or run in a clone)"))
	if clientErr == nil {
		clientErr = d.checkBelieved(c, cl, repo)
	}
	if clientErr != nil {
		fmt.Fprintf(d.Stdout, "not ready:  %v\n", clientErr)
		return ExitError
	}
	fmt.Fprintln(d.Stdout, "ready")
	return 0
}

// checkBelieved prints whose comments the client believes in repo: what --app says, else
// what the repository's config says (readerOf), read once here.
func (d Door) checkBelieved(c common, cl *Client, repo string) error {
	owner, name, ok := clarify.ParseRepo(repo)
	if !ok {
		fmt.Fprintf(d.Stdout, "believes:   %s\n", cmp.Or(*c.app, "found in each repository's .github/clarify.yml"))
		return nil
	}
	ctx, stop := signalContext()
	defer stop()
	r, err := cl.readerOf(ctx, owner, name)
	if err != nil {
		return err
	}
	how := ""
	if len(r.Public) > 0 {
		how = fmt.Sprintf(", signed under a key of the %d in .github/clarify.yml", len(r.Public))
	}
	fmt.Fprintf(d.Stdout, "believes:   the comments of %s%s\n", r.Bot, how)
	return nil
}
