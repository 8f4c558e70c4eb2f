package app

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/handlers/sweep"
)

// Load assembles the app from the config file at path (none: "") and the environment
// over it, logging to logs: what serve and sweep share. A config with mistakes stops here,
// before anything listens or calls GitHub, with every mistake named.
func Load(path string, logs io.Writer) (Config, zerolog.Logger, *App, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return cfg, zerolog.Logger{}, nil, fmt.Errorf("not started: the configuration has mistakes:\n  %s",
			strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	logger := NewLogger(logs, cfg.Clarify.LogLevel)
	a, err := NewApp(cfg, logger, time.Now)
	return cfg, logger, a, err
}

// Serve runs the app until ctx ends, then drains what it accepted: the webhook server on
// cfg's address, the readiness check with GitHub, the redelivery at start and, when
// clarify.sweep_interval is positive, the sweep on a ticker. listen is net.Listen; tests
// pass their own to learn the address, or to see that nothing listened.
func (a *App) Serve(ctx context.Context, cfg Config, logger zerolog.Logger, listen func(network, addr string) (net.Listener, error)) error {
	srv := NewServer(cfg, a.Handler)
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

	a.checkRedis(ctx, logger)

	var background sync.WaitGroup
	// /readyz answers 503 until GitHub has accepted the app's JWT once; a wrong key or
	// App ID is logged, in plain words, at every attempt.
	background.Go(func() { a.AwaitGitHub(ctx, logger) })
	// Deliveries that failed while the app was down are asked for again at start, by one
	// replica: the one that holds the sweep lease does it after its sweep anyway.
	background.Go(func() {
		if release, ok := a.sweepTurn(ctx, logger, 0); ok {
			a.redeliver(ctx, logger)
			release()
		}
	})
	if cfg.Clarify.SweepInterval > 0 {
		background.Go(func() { a.sweepEvery(ctx, logger, cfg.Clarify.SweepInterval) })
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
	a.Sweep.FlushDecisions(shut)
	if a.Redis != nil {
		_ = a.Redis.Close()
	}
	return err
}

// SweepOnce runs one sweep and the redelivery after it, unless another replica holds the
// sweep lease: bot sweep, for deployments where something else keeps time.
func (a *App) SweepOnce(ctx context.Context, logger zerolog.Logger) error {
	if a.Redis != nil {
		defer a.Redis.Close()
	}
	release, ok := a.sweepTurn(ctx, logger, 0)
	if !ok {
		logger.Info().Msg("Another replica is sweeping now; this run leaves it to that one")
		return nil
	}
	defer release()
	stats, err := a.Sweep.Run(logger.WithContext(ctx))
	logSweep(logger, stats, err)
	a.redeliver(ctx, logger)
	return err
}

// checkRedis says at start whether the replicas' shared state answers. Either way the app
// serves: without Redis, as a single process would.
func (a *App) checkRedis(ctx context.Context, logger zerolog.Logger) {
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
func (a *App) sweepTurn(ctx context.Context, logger zerolog.Logger, hold time.Duration) (release func(), ok bool) {
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

// redeliver asks GitHub again for the app's failed deliveries; a failure is logged and
// the next run reads the log from the same point.
func (a *App) redeliver(ctx context.Context, logger zerolog.Logger) {
	stats, err := a.Redeliver.Run(logger.WithContext(ctx))
	ev := logger.Info()
	if err != nil {
		ev = logger.Error().Err(err)
	}
	ev.Int("read", stats.Read).Int("undelivered", stats.Failed).Int("asked", stats.Asked).Msg("Redelivery check finished")
}

func logSweep(logger zerolog.Logger, stats sweep.Stats, err error) {
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
func (a *App) sweepEvery(ctx context.Context, logger zerolog.Logger, every time.Duration) {
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
		release, ok := a.sweepTurn(ctx, logger, every-every/10)
		if !ok {
			continue
		}
		sctx, cancel := context.WithTimeout(logger.WithContext(ctx), every*5)
		stats, err := a.Sweep.Run(sctx)
		logSweep(logger, stats, err)
		a.redeliver(sctx, logger)
		cancel()
		release()
	}
}
