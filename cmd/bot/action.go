package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/cli"
)

// actionExits are bot action's exit codes: a run's (internal/action), which says why it
// failed as an annotation and in the step's summary.
var actionExits = []cli.ExitCode{
	{Code: action.ExitOK, Means: "the event was handled"},
	{Code: action.ExitFailed, Means: "the run failed (an ::error:: annotation and the step's summary say why)"},
	{Code: action.ExitRefused, Means: "the run could not start: a setting missing or wrong, or a usage mistake"},
}

// actionCmd runs `bot action`: one event of a GitHub Actions workflow, from the step's
// environment (internal/action). A run's exit code comes as a cli.Status: a failed run has
// already said why, as an annotation and in the step's summary.
func actionCmd(args []string, std cli.Std) error {
	stdout, stderr := std.Out, std.Err
	cmd := cli.New("action", "Run one event of a GitHub Actions workflow, from the step's environment.", "bot action", `Reads GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_TOKEN
and CLARIFY_LEDGER_KEY (a repository secret); CLARIFY_APP_SLUG when the token is an App's
(default github-actions), CLARIFY_ACTION_BUDGET for the most requests a run may make,
CLARIFY_CHECKS=true for pull requests' check runs (the workflow then needs checks: write),
CLARIFY_LOG_LEVEL for the log (debug, info, warn or error; info by default).`)
	pos, err := cmd.Parse(args, stdout)
	if err == nil && len(pos) > 0 {
		err = cmd.Usagef("unexpected argument %q: the event comes from the environment", pos[0])
	}
	if err != nil {
		return err
	}
	env, err := action.OSEnv()
	if err != nil {
		return cli.Code(action.Refuse(env, action.Options{Stdout: stdout}, err))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.Code(action.Run(ctx, env, action.Options{Stdout: stdout, Stderr: stderr}))
}
