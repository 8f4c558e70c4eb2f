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
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/handlers"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: bot <command> [flags]

commands:
  serve  -c FILE        run the GitHub App
  replay [FILE…]        play a scenario or recorded deliveries against an in-memory GitHub
                        (no FILE: the built-in demo)
  ledger [-key K] FILE  print the ledger hidden in a status comment (FILE or - for stdin)
  config check FILE     check a repository's .github/clarify.yml offline
  sweep  -c FILE        run one sweep of every installation's deadlines and exit
                        (for an external scheduler, with clarify.sweep_interval negative)
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
// environment over it, logging to logs: what serve and sweep share.
func appFromFlags(name string, args []string, logs, stderr io.Writer) (Config, zerolog.Logger, *App, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("c", "", "config file (YAML); the environment overrides it")
	if err := fs.Parse(args); err != nil {
		return Config{}, zerolog.Logger{}, nil, err
	}
	cfg, err := LoadConfig(*path)
	if err != nil {
		return cfg, zerolog.Logger{}, nil, err
	}
	logger := newLogger(logs, cfg.Clarify.LogLevel)
	app, err := NewApp(cfg, logger, time.Now)
	return cfg, logger, app, err
}

func serveCmd(args []string, stderr io.Writer) error {
	cfg, logger, app, err := appFromFlags("serve", args, os.Stdout, stderr)
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(cfg.Server.Address, strconv.Itoa(cfg.Server.Port))
	srv := &http.Server{Addr: addr, Handler: app.Handler, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	logger.Info().Str("address", addr).Str("api", cfg.Github.V3APIURL).Msg("Clarify is listening")

	if cfg.Clarify.SweepInterval > 0 {
		go sweepEvery(ctx, app, logger, cfg.Clarify.SweepInterval)
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info().Msg("Shutting down: draining accepted deliveries")
	shut, cancel := context.WithTimeout(context.Background(), cfg.Clarify.HandlerTimeout+10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	return app.Scheduler.Drain(shut)
}

// sweepCmd runs one sweep and exits, for deployments where something else keeps time.
func sweepCmd(args []string, stdout, stderr io.Writer) error {
	_, logger, app, err := appFromFlags("sweep", args, stdout, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stats, err := app.Sweep.Run(logger.WithContext(ctx))
	logSweep(logger, stats, err)
	return err
}

func logSweep(logger zerolog.Logger, stats handlers.SweepStats, err error) {
	ev := logger.Info()
	if err != nil {
		ev = logger.Error().Err(err)
	}
	ev.Int("installations", stats.Installations).Int("repositories", stats.Repos).Int("issues", stats.Issues).
		Int("requests", stats.Requests).Int("stopped_on_budget", stats.Stopped).Msg("Sweep finished")
}

// sweepEvery runs the sweep on a ticker until ctx ends; a failed sweep is logged and the
// next one tries again, since deadlines live in the ledgers, not here.
func sweepEvery(ctx context.Context, app *App, logger zerolog.Logger, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sctx, cancel := context.WithTimeout(logger.WithContext(ctx), every*5)
		stats, err := app.Sweep.Run(sctx)
		cancel()
		logSweep(logger, stats, err)
	}
}

func newLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}
