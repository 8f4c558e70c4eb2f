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
	"github.com/clarify-app/clarify/internal/app"
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
func appFromFlags(name string, args []string, logs, stderr io.Writer) (app.Config, zerolog.Logger, *app.App, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("c", "", "config file (YAML); the environment overrides it")
	if err := fs.Parse(args); err != nil {
		return app.Config{}, zerolog.Logger{}, nil, err
	}
	cfg, err := app.LoadConfig(*path)
	if err != nil {
		return cfg, zerolog.Logger{}, nil, err
	}
	logger := app.NewLogger(logs, cfg.Clarify.LogLevel)
	a, err := app.NewApp(cfg, logger, time.Now)
	return cfg, logger, a, err
}

func serveCmd(args []string, stderr io.Writer) error {
	cfg, logger, a, err := appFromFlags("serve", args, os.Stdout, stderr)
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(cfg.Server.Address, strconv.Itoa(cfg.Server.Port))
	// GitHub sends a delivery whole and gives up after 10 s: a connection that trickles
	// its body or idles is closed rather than held.
	srv := &http.Server{Addr: addr, Handler: a.Handler, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	logger.Info().Str("address", addr).Str("api", cfg.Github.V3APIURL).Msg("Clarify is listening")
	if len(cfg.Github.App.WebhookSecret) < 32 {
		logger.Warn().Int("length", len(cfg.Github.App.WebhookSecret)).
			Msg("The webhook secret is shorter than 32 characters: anyone who guesses it can sign deliveries; choose a long random one")
	}

	// Deliveries that failed while the app was down are asked for again at start.
	go redeliver(ctx, a, logger)
	if cfg.Clarify.SweepInterval > 0 {
		go sweepEvery(ctx, a, logger, cfg.Clarify.SweepInterval)
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
	return a.Scheduler.Drain(shut)
}

// sweepCmd runs one sweep and exits, for deployments where something else keeps time.
func sweepCmd(args []string, stdout, stderr io.Writer) error {
	_, logger, a, err := appFromFlags("sweep", args, stdout, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stats, err := a.Sweep.Run(logger.WithContext(ctx))
	logSweep(logger, stats, err)
	redeliver(ctx, a, logger)
	return err
}

// redeliver asks GitHub again for the app's failed deliveries; a failure is logged and
// the next run reads the log from the same point.
func redeliver(ctx context.Context, a *app.App, logger zerolog.Logger) {
	stats, err := a.Redeliver.Run(logger.WithContext(ctx))
	ev := logger.Info()
	if err != nil {
		ev = logger.Error().Err(err)
	}
	ev.Int("read", stats.Read).Int("undelivered", stats.Failed).Int("asked", stats.Asked).Msg("Redelivery check finished")
}

func logSweep(logger zerolog.Logger, stats handlers.SweepStats, err error) {
	ev := logger.Info()
	if err != nil {
		ev = logger.Error().Err(err)
	}
	ev.Int("installations", stats.Installations).Int("repositories", stats.Repos).Int("issues", stats.Issues).
		Int("requests", stats.Requests).Int("stopped_on_budget", stats.Stopped).Int("failed", stats.Failed).Msg("Sweep finished")
}

// sweepEvery runs the sweep on a ticker until ctx ends; a failed sweep is logged and the
// next one tries again, since deadlines live in the ledgers, not here.
func sweepEvery(ctx context.Context, a *app.App, logger zerolog.Logger, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sctx, cancel := context.WithTimeout(logger.WithContext(ctx), every*5)
		stats, err := a.Sweep.Run(sctx)
		logSweep(logger, stats, err)
		redeliver(sctx, a, logger)
		cancel()
	}
}
