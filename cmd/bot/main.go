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
	"strings"
	"sync"
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
	cfg, err := app.LoadConfig(*path)
	if err != nil {
		return cfg, zerolog.Logger{}, nil, fmt.Errorf("not started: the configuration has mistakes:\n  %s",
			strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	logger := app.NewLogger(logs, cfg.Clarify.LogLevel)
	a, err := app.NewApp(cfg, logger, time.Now)
	return cfg, logger, a, err
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
	srv := app.NewServer(cfg, a.Handler)
	ln, err := listen("tcp", srv.Addr)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info().Str("address", ln.Addr().String()).Str("api", cfg.Github.V3APIURL).Msg("Clarify is listening")
	if len(cfg.Github.App.WebhookSecret) < 32 {
		logger.Warn().Int("length", len(cfg.Github.App.WebhookSecret)).
			Msg("The webhook secret is shorter than 32 characters: anyone who guesses it can sign deliveries; choose a long random one")
	}

	checkRedis(ctx, a, logger)

	var background sync.WaitGroup
	// /readyz answers 503 until GitHub has accepted the app's JWT once; a wrong key or
	// App ID is logged, in plain words, at every attempt.
	background.Go(func() { a.AwaitGitHub(ctx, logger) })
	// Deliveries that failed while the app was down are asked for again at start, by one
	// replica: the one that holds the sweep lease does it after its sweep anyway.
	background.Go(func() {
		if release, ok := sweepTurn(ctx, a, logger, 0); ok {
			redeliver(ctx, a, logger)
			release()
		}
	})
	if cfg.Clarify.SweepInterval > 0 {
		background.Go(func() { sweepEvery(ctx, a, logger, cfg.Clarify.SweepInterval) })
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
	err = a.Scheduler.Drain(shut)
	background.Wait()
	if a.Redis != nil {
		_ = a.Redis.Close()
	}
	return err
}

// checkRedis says at start whether the replicas' shared state answers. Either way the app
// serves: without Redis, as a single process would.
func checkRedis(ctx context.Context, a *app.App, logger zerolog.Logger) {
	if a.Redis == nil {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := a.Redis.Ping(pctx); err != nil {
		logger.Error().Err(err).Str("redis", a.Redis.Where()).
			Msg("REDIS UNREACHABLE at start: serving alone, in memory, until it answers; replicas may repeat each other's work meanwhile")
		return
	}
	logger.Info().Str("redis", a.Redis.Where()).Msg("Replicas share issue leases, write pacing, the sweep and deliveries seen through Redis")
}

// sweepTurn takes the sweep lease for at least hold, or reports that another replica
// holds it: one sweep at a time across replicas, about one an interval.
func sweepTurn(ctx context.Context, a *app.App, logger zerolog.Logger, hold time.Duration) (release func(), ok bool) {
	release, ok, err := a.SweepLease.Acquire(ctx, hold)
	if err != nil {
		logger.Warn().Err(err).Msg("Could not take the sweep lease; this sweep is skipped")
		return nil, false
	}
	if !ok {
		logger.Debug().Msg("Another replica holds the sweep lease; this sweep is skipped")
	}
	return release, ok
}

// sweepCmd runs one sweep and exits, for deployments where something else keeps time.
func sweepCmd(args []string, stdout, stderr io.Writer) error {
	_, logger, a, err := appFromFlags("sweep", args, stdout, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if a.Redis != nil {
		defer a.Redis.Close()
	}
	release, ok := sweepTurn(ctx, a, logger, 0)
	if !ok {
		logger.Info().Msg("Another replica is sweeping now; this run leaves it to that one")
		return nil
	}
	defer release()
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
		Int("due", stats.Due).Int("found_by_walk", stats.Found).Int("deadlock_breaks", stats.Breaks).Bool("walked", stats.Reconciled).
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
		// Held for most of the interval, so that replicas whose tickers fall close
		// together sweep once between them, and the holder's next tick finds it free.
		release, ok := sweepTurn(ctx, a, logger, every-every/10)
		if !ok {
			continue
		}
		sctx, cancel := context.WithTimeout(logger.WithContext(ctx), every*5)
		stats, err := a.Sweep.Run(sctx)
		logSweep(logger, stats, err)
		redeliver(sctx, a, logger)
		cancel()
		release()
	}
}
