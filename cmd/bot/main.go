// Command bot is Clarify: `bot serve` runs the GitHub App, `bot replay` plays deliveries
// against an in-memory GitHub, `bot ledger` reads a hidden ledger.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/app"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: bot <command> [flags]
       bot --version         print the version, the VCS revision and the Go release

commands:
  serve  -c FILE        run the GitHub App
  replay [FILE…]        play a scenario or recorded deliveries against an in-memory GitHub
                        (no FILE: the built-in demo)
  ledger OWNER/REPO#N [--json]
                        print an issue's ledger, read with GITHUB_TOKEN (read-only);
                        ledger [-key K] FILE reads a status comment's body (- for stdin)
  ledger export OWNER/REPO#N [-o FILE] | ledger import [-status] FILE
                        AgentX ledger files (.agentx/state/clarifications/issue-N.json)
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
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serveCmd(args[1:], stderr)
	case "replay":
		err = replayCmd(args[1:], stdout, stderr)
	case "ledger":
		err = ledgerCmd(args[1:], os.Stdin, stdout)
	case "config":
		err = configCmd(args[1:], stdout)
	case "sweep":
		err = sweepCmd(args[1:], stdout, stderr)
	case "action":
		return actionCmd(args[1:], stdout, stderr)
	case "stats":
		err = statsCmd(args[1:], stdout, stderr)
	case "setup":
		err = setupCmd(args[1:], stdout, stderr)
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "bot: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "bot %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// appFromFlags parses a subcommand's -c flag and assembles the app from that config, the
// environment over it, logging to logs: what serve and sweep share. A config with
// mistakes stops here, before anything listens or calls GitHub.
func appFromFlags(name string, args []string, logs, stderr io.Writer) (app.Config, zerolog.Logger, *app.App, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("c", "", "config file (YAML); the environment overrides it")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: bot %s [-c FILE]\n", name)
		fs.PrintDefaults()
		writeSettings(fs.Output())
	}
	if err := fs.Parse(args); err != nil {
		return app.Config{}, zerolog.Logger{}, nil, err
	}
	return app.Load(*path, logs)
}

func serveCmd(args []string, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, os.Stdout, stderr, net.Listen)
}

// serve runs the app until ctx ends, then drains what it accepted. listen is net.Listen;
// tests pass their own to learn the address, or to see that nothing listened.
func serve(ctx context.Context, args []string, logs, stderr io.Writer, listen func(network, addr string) (net.Listener, error)) error {
	cfg, logger, a, err := appFromFlags("serve", args, logs, stderr)
	if err != nil {
		return err
	}
	return a.Serve(ctx, cfg, logger, listen)
}

// sweepCmd runs one sweep and exits, for deployments where something else keeps time.
func sweepCmd(args []string, stdout, stderr io.Writer) error {
	_, logger, a, err := appFromFlags("sweep", args, stdout, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return a.SweepOnce(ctx, logger)
}
