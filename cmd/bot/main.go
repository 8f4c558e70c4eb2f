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
	"slices"
	"strings"
	"syscall"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/keycmd"
	"github.com/clarify-app/clarify/internal/readcmd"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return bot.Run(args, cli.Std{In: os.Stdin, Out: stdout, Err: stderr})
}

// bot is the command table: what bot help lists, and what runs each command.
var bot = cli.Program{Name: "bot", Head: head, Foot: foot, Commands: slices.Concat(
	[]cli.Entry{
		{Name: "serve", Synopsis: "-c FILE", Summary: "run the GitHub App", Run: serveCmd},
		{Name: "replay", Synopsis: "[FILE…]", Summary: "play a scenario or recorded deliveries against an in-memory GitHub", Run: replayCmd},
	},
	readcmd.Commands(readcmd.Keyed()),
	[]cli.Entry{
		{Name: "key", Synopsis: "new|public [-config FILE]", Summary: "make the workflow's ledger key, and its public key's verify_keys line", Run: keyCmd},
		{Name: "config", Synopsis: "check [-repo OWNER/REPO] FILE", Summary: "check a repository's .github/clarify.yml", Run: configCmd,
			Exits: []cli.ExitCode{{Code: cli.ExitError, Means: "the file has a problem (each is printed with its line), or it could not be read"}}},
		{Name: "action", Summary: "one GitHub Actions workflow event, from the step's environment", Run: actionCmd, Exits: actionExits},
		{Name: "sweep", Synopsis: "-c FILE", Summary: "run one sweep of every installation's deadlines and exit", Run: sweepCmd},
		{Name: "setup", Synopsis: "-webhook-url URL", Summary: "register the app on GitHub from app.yml (in a browser) and write config.yml", Run: setupCmd},
	},
	asker.Commands(askerDoor),
	[]cli.Entry{
		{Name: "mcp", Summary: "the asker's tools for an agent, over MCP on stdin and stdout", Run: mcpCmd, Exits: asker.MCPExits},
		{Name: "version", Aliases: []string{"--version", "-version"}, Run: func(_ []string, std cli.Std) error {
			_, err := fmt.Fprintln(std.Out, versionLine())
			return err
		}},
	},
)}

const head = `Clarify keeps clarifications in GitHub issues: an agent asks, people answer.

usage: bot <command> [flags] [arguments]
       bot --version         print the version, the VCS revision and the Go release
       bot help COMMAND      the same as bot COMMAND -h: what it does, its usage and flags
`

const foot = "Flags go before or after the arguments. Exit status: 0 done, 1 failed, 2 a usage mistake.\n"

// keyCmd runs bot key with a new key's randomness from crypto/rand.
func keyCmd(args []string, std cli.Std) error {
	return keycmd.Run(args, os.Getenv, rand.Reader, std.Out, std.Err)
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

func serveCmd(args []string, std cli.Std) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, std.Out, std.Out, net.Listen)
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
func sweepCmd(args []string, std cli.Std) error {
	const summary = "Run one sweep of every installation's deadlines and exit: for an external scheduler, with clarify.sweep_interval negative."
	_, logger, a, err := appFromFlags("sweep", summary, args, std.Out, std.Out)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return a.SweepOnce(ctx, logger)
}
