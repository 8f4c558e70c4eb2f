package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/clarify-app/clarify/internal/action"
)

// actionCmd runs `bot action`: one event of a GitHub Actions workflow, from the step's
// environment (internal/action). It returns the exit code itself: a failed run has
// already said why, as an annotation and in the step's summary.
func actionCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("action", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: bot action
Runs one event of a GitHub Actions workflow from the step's environment:
GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_TOKEN and
CLARIFY_LEDGER_KEY (a repository secret); CLARIFY_APP_SLUG when the token is an App's
(default github-actions), CLARIFY_ACTION_BUDGET for the most requests a run may make,
CLARIFY_CHECKS=true for pull requests' check runs (the workflow then needs checks: write),
CLARIFY_LOG_LEVEL for the log (debug, info, warn or error; info by default).
`)
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return action.ExitRefused
	}
	env, err := action.OSEnv()
	if err != nil {
		fmt.Fprintf(stdout, "::error title=Clarify::%v\n", err)
		return action.ExitRefused
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return action.Run(ctx, env, action.Options{Stdout: stdout, Stderr: stderr})
}
