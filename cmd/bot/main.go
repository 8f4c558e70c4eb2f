// Command bot is Clarify: `bot serve` runs the GitHub App, `bot replay` plays deliveries
// against an in-memory GitHub, `bot ledger` reads a hidden ledger.
package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/keycmd"
	"github.com/clarify-app/clarify/internal/readcmd"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `Clarify keeps clarifications in GitHub issues: an agent asks, people answer.

usage: bot <command> [flags] [arguments]
       bot --version         print the version, the VCS revision and the Go release
       bot help COMMAND      the same as bot COMMAND -h: what it does, its usage and flags

commands:
  serve  -c FILE        run the GitHub App
  replay [FILE…]        play a scenario or recorded deliveries against an in-memory GitHub
                        (no FILE: the built-in demo)
  ledger OWNER/REPO#N [--json]
                        print an issue's ledger, read with GITHUB_TOKEN (read-only);
                        ledger [-key K] FILE reads a status comment's body (- for stdin)
  ledger export OWNER/REPO#N [-o FILE] | ledger import [-status] FILE
                        AgentX ledger files (.agentx/state/clarifications/issue-N.json)
  key new [-config FILE] | key public [-config FILE]
                        make the workflow's CLARIFY_LEDGER_KEY (printed once, on stdout)
                        and the verify_keys line of its public key for .github/clarify.yml
  config check [-repo OWNER/REPO] FILE
                        check a repository's .github/clarify.yml (offline; -repo with
                        GITHUB_TOKEN also looks up label names people already use)
  stats  OWNER/REPO [-since 720h]
                        a digest of a repository's clarifications, read with GITHUB_TOKEN
  action                one GitHub Actions workflow event, from the step's environment
                        (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_TOKEN, CLARIFY_LEDGER_KEY…)
  sweep  -c FILE        run one sweep of every installation's deadlines and exit
                        (for an external scheduler, with clarify.sweep_interval negative)
  setup  -webhook-url URL  register the app on GitHub from app.yml (in a browser) and write config.yml
  ask    OWNER/REPO#N TARGET QUESTION [--topic T] [--option O]… [--ref R] [--state S] [--json]
                        ask a question as an agent, with your own token; prints its id
                        (exit 5: sent, not taken in time; its ref finds it)
  wait   OWNER/REPO#N (CLR-… | --ref R) [--timeout 2h] [--json]
                        wait until it is answered or settled; exit 0 answered, 3 fallback,
                        4 abandoned, 124 still open
  status OWNER/REPO#N [CLR-… | --ref R] [--json]
                        the issue's clarifications, from the app's own records
  resolve  OWNER/REPO#N CLR-… [DECISION] [--json]
                        settle your clarification (without a decision, the last answer stands)
  followup OWNER/REPO#N CLR-… QUESTION [--json]
                        ask its next round, once the last one is answered
  abandon  OWNER/REPO#N CLR-… [--json]
                        withdraw it; each of the three prints the record once Clarify took it
                        (exit 1 refused, 5 not taken in time)
  mcp                   the asker's tools for an agent, over MCP on stdin and stdout

Flags go before or after the arguments. Exit status: 0 done, 1 failed, 2 a usage mistake.
`

// toolCommands are the commands that read or make something for a person, apart from the
// app and the asker.
var toolCommands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"ledger": func(args []string, stdout, stderr io.Writer) error {
		return readcmd.Ledger(args, os.Stdin, stdout, stderr)
	},
	"key": func(args []string, stdout, stderr io.Writer) error {
		return keycmd.Run(args, os.Getenv, rand.Reader, stdout, stderr)
	},
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return cli.ExitUsage
	}
	if cmd, ok := askerCommands[args[0]]; ok {
		return cmd(askerDoor(stdout, stderr), args[1:])
	}
	if cmd, ok := toolCommands[args[0]]; ok {
		return cli.Exit(stderr, args[0], cmd(args[1:], stdout, stderr))
	}
	var err error
	switch args[0] {
	case "serve":
		err = serveCmd(args[1:], stdout)
	case "replay":
		err = replayCmd(args[1:], stdout, stderr)
	case "config":
		err = configCmd(args[1:], stdout)
	case "sweep":
		err = sweepCmd(args[1:], stdout)
	case "action":
		return actionCmd(args[1:], stdout, stderr)
	case "stats":
		err = readcmd.Stats(args[1:], stdout, stderr)
	case "setup":
		err = setupCmd(args[1:], stdout, stderr)
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, versionLine())
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
	default:
		err = cli.Usagef("", "unknown command %q", args[0])
	}
	return cli.Exit(stderr, args[0], err)
}

// appFromFlags parses a subcommand's -c flag and assembles the app from that config, the
// environment over it, logging to logs: what serve and sweep share. A config with
// mistakes stops here, before anything listens or calls GitHub. Help goes to stdout.
func appFromFlags(name, summary string, args []string, logs, stdout io.Writer) (app.Config, zerolog.Logger, *app.App, error) {
	var settings strings.Builder
	app.WriteSettings(&settings)
	cmd := cli.New(name, summary, "bot "+name+" [-c FILE]", settings.String())
	path := cmd.Flags.String("c", "", "config file (YAML); the environment overrides it")
	pos, err := cmd.Parse(args, stdout)
	if err == nil && len(pos) > 0 {
		err = cmd.Usagef("unexpected argument %q: the config file goes after -c", pos[0])
	}
	if err != nil {
		return app.Config{}, zerolog.Logger{}, nil, err
	}
	return app.Load(*path, logs)
}

func serveCmd(args []string, stdout io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stdout, net.Listen)
}

// serve runs the app until ctx ends, then drains what it accepted. listen is net.Listen;
// tests pass their own to learn the address, or to see that nothing listened.
func serve(ctx context.Context, args []string, logs, stdout io.Writer, listen func(network, addr string) (net.Listener, error)) error {
	const summary = "Run the GitHub App: take GitHub's webhooks and keep each issue's clarifications, until SIGTERM."
	cfg, logger, a, err := appFromFlags("serve", summary, args, logs, stdout)
	if err != nil {
		return err
	}
	return a.Serve(ctx, cfg, logger, listen)
}

// sweepCmd runs one sweep and exits, for deployments where something else keeps time.
func sweepCmd(args []string, stdout io.Writer) error {
	const summary = "Run one sweep of every installation's deadlines and exit: for an external scheduler, with clarify.sweep_interval negative."
	_, logger, a, err := appFromFlags("sweep", summary, args, stdout, stdout)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return a.SweepOnce(ctx, logger)
}
