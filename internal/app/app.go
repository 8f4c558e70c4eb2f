package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"
	"github.com/rs/zerolog/hlog"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/handlers/sweep"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/metrics"
	"github.com/clarify-app/clarify/internal/redisstate"
)

// App is the assembled GitHub App: its HTTP handler, the scheduler to drain on shutdown,
// and the sweep that a ticker or an external scheduler runs.
type App struct {
	Handler   http.Handler
	Scheduler *delivery.Scheduler
	Sweep     *sweep.Installations
	// Redeliver asks GitHub again for deliveries that never got through; serve runs it
	// at start and after every sweep.
	Redeliver *delivery.Redeliver
	// Bodies bounds the bytes held for deliveries whose signature is not checked yet.
	Bodies *BodyBudget
	// SweepLease lets one replica at a time run the sweep (and the redelivery after it).
	SweepLease handlers.SweepLease
	// Redis is the state replicas share, nil for a single process (no clarify.redis_url).
	Redis *redisstate.Store
	// Metrics are the app's Prometheus collectors, served at /metrics.
	Metrics *metrics.Metrics

	clients githubapp.ClientCreator
	slug    string
	apiURL  string
	// ready is set once GitHub has accepted the app's JWT; /readyz answers from it.
	ready atomic.Bool
}

// NewApp is the composition root: every handler the app has is listed here.
func NewApp(cfg Config, logger zerolog.Logger, now func() time.Time) (*App, error) {
	// A registry per app, not Prometheus's global one: tests and harnesses build many.
	m := metrics.New()
	clients, shared, err := newClients(cfg, logger, m)
	if err != nil {
		return nil, err
	}
	// A lone server that sweeps writes the decisions left for the memory's next write.
	opts := handlers.Options{Clients: clients, AppSlug: cfg.Clarify.AppSlug, LedgerKey: cfg.LedgerKeyBytes(),
		PreviousKeys: cfg.PreviousLedgerKeys(), Now: now, Mode: handlers.LoneServer(cfg.Clarify.SweepInterval > 0), OnSaved: m.Saved}
	sched := delivery.NewScheduler(cfg.Clarify.Workers)
	sched.Timeout = cfg.Clarify.HandlerTimeout
	sched.OnDelivery = m.Delivery
	var sweepLease handlers.SweepLease = &handlers.LocalSweepLease{}
	if shared != nil {
		opts.Mode = handlers.Replicas()
		opts.IssueLeases, opts.Index, opts.Recent = shared.IssueLeases(), shared.Index(), shared.Decisions()
		sched.Seen = shared.Deliveries()
		sweepLease = shared.SweepLease()
	}
	base := handlers.NewBase(opts)

	dispatcher := githubapp.NewEventDispatcher([]githubapp.EventHandler{
		&handlers.IssueComment{Base: base},
		&handlers.Issues{Base: base},
		&handlers.Dispatch{Base: base},
		&handlers.PullRequest{Base: base},
		&handlers.RelationEvents{Base: base},
	}, cfg.Github.App.WebhookSecret, githubapp.WithScheduler(sched))

	sw := &sweep.Installations{Base: base, Budget: cfg.Clarify.SweepBudget, ReconcileEvery: cfg.Clarify.WalkInterval}
	sw.OnRun = func(st sweep.Stats, took time.Duration, err error) {
		// Issues counts the visits to due, walked and cycle issues; Breaks the escalations.
		m.Sweep(took, err != nil, st.Due, st.Found, st.Issues-st.Due-st.Found+st.Breaks)
	}
	a := &App{
		Scheduler:  sched,
		Sweep:      sw,
		Redeliver:  &delivery.Redeliver{Clients: clients, Now: now},
		Bodies:     NewBodyBudget(cfg.Clarify.MaxUnverifiedBodyBytes),
		SweepLease: sweepLease,
		Redis:      shared,
		Metrics:    m,
		clients:    clients,
		slug:       cfg.Clarify.AppSlug,
		apiURL:     cfg.Github.V3APIURL,
	}
	a.Handler = hlog.NewHandler(logger)(a.routes(cfg, m, dispatcher))
	return a, nil
}

// newClients builds the app's GitHub clients, paced and retried, and the state replicas
// share through Redis when clarify.redis_url is set (nil otherwise).
func newClients(cfg Config, logger zerolog.Logger, m *metrics.Metrics) (githubapp.ClientCreator, *redisstate.Store, error) {
	// One pacer for every client: go-githubapp builds a client's middleware per client.
	pacer := &ghtransport.Pacer{PerMinute: cfg.Clarify.WritesPerMinute, PerHour: cfg.Clarify.WritesPerHour, Minute: cfg.PaceMinute,
		Spacing: cfg.PaceSpacing, OnWait: m.Paced}
	retry := cfg.Retry
	retry.OnLimit = m.RateLimited
	// Replicas behind one webhook URL share through Redis what one process keeps in memory.
	var shared *redisstate.Store
	if cfg.Clarify.RedisURL != "" {
		var err error
		shared, err = redisstate.New(redisstate.Options{URL: cfg.Clarify.RedisURL, Logger: logger,
			// Per App ID, so that production and staging can share one Redis.
			Prefix: fmt.Sprintf("clarify:%d:", cfg.Github.App.IntegrationID)})
		if err != nil {
			return nil, nil, err
		}
		pacer.Store = shared.PaceStore()
	}
	clients, err := NewClientCreator(cfg.Github, Clients{Retry: retry, Pacer: pacer,
		// The metrics innermost, so that they count what reaches GitHub, by route template.
		Inner: m.Middleware(apiPath(cfg.Github.V3APIURL))})
	return clients, shared, err
}

// routes is the app's HTTP surface: the signed webhook, /metrics and the health checks.
func (a *App) routes(cfg Config, m *metrics.Metrics, dispatcher http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(githubapp.DefaultWebhookRoute, requireSignature([]byte(cfg.Github.App.WebhookSecret), a.Bodies, m, dispatcher))
	// On the webhook's listener, beside the health checks: one port to run and probe. Its
	// labels hold no owner, repository or login, but only the webhook route is meant to be
	// public; docs/app.md says to keep /metrics behind the proxy.
	mux.Handle("/metrics", m.Handler())
	// Liveness: the process answers. It says nothing about GitHub, so that a GitHub
	// outage does not get the app restarted in a loop.
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if !a.Ready() {
			http.Error(w, "not ready: GitHub has not accepted the app's credentials yet; the log says why", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}

// Ready reports whether GitHub has accepted the app's credentials at least once.
func (a *App) Ready() bool { return a.ready.Load() }

// Backoff of AwaitGitHub: soon enough after a fixed mistake, rare enough not to spend the
// app's rate limit or fill the log while GitHub is down.
const (
	readyRetryFirst = time.Second
	readyRetryMax   = time.Minute
)

// CheckGitHub asks GitHub for the app itself (GET /app) with the app's JWT: the one
// request that proves the API URL, the App ID and the private key together. On success
// the app is ready; the error says in an operator's words what is likely wrong.
func (a *App) CheckGitHub(ctx context.Context) error {
	client, err := a.clients.NewAppClient()
	if err != nil {
		return fmt.Errorf("cannot build the app's GitHub client: %w", err)
	}
	got, _, err := client.Apps.Get(ctx, "")
	if err != nil {
		return explainCheck(err, a.apiURL)
	}
	// The app knows its own comments by "<slug>[bot]": with another slug it would take
	// them for someone else's, so it is not ready, though only GitHub can tell.
	if slug := got.GetSlug(); slug != "" && slug != a.slug {
		return fmt.Errorf("GitHub says this app's slug is %q, but clarify.app_slug (CLARIFY_APP_SLUG) is %q: set it to %q", slug, a.slug, slug)
	}
	a.ready.Store(true)
	return nil
}

// AwaitGitHub runs CheckGitHub until it succeeds or ctx ends, with backoff, logging each
// failure; serve runs it in the background, so /healthz answers meanwhile.
func (a *App) AwaitGitHub(ctx context.Context, logger zerolog.Logger) {
	wait := readyRetryFirst
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := a.CheckGitHub(ctx)
		if err == nil {
			logger.Info().Str("api", a.apiURL).Msg("GitHub accepted the app's credentials: /readyz answers 200")
			return
		}
		if ctx.Err() != nil {
			return
		}
		logger.Error().Err(err).Dur("retry_in", wait).Msg("Not ready: the check with GitHub failed; trying again")
		t.Reset(wait)
		wait = min(2*wait, readyRetryMax)
	}
}

// explainCheck turns a failed GET /app into the likely cause.
func explainCheck(err error, apiURL string) error {
	var resp *github.ErrorResponse
	var netErr *url.Error
	switch {
	case errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusUnauthorized:
		hint := "check github.app.integration_id (GITHUB_APP_INTEGRATION_ID), and that the private key is one generated for that app and not revoked"
		if strings.Contains(resp.Message, "'exp'") || strings.Contains(resp.Message, "'iat'") {
			hint = "check this machine's clock: GitHub refuses a JWT issued in the future or expired"
		}
		return fmt.Errorf("GitHub refused the app's JWT (401 %s): %s", resp.Message, hint)
	case errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%sapp answered 404: github.v3_api_url (GITHUB_V3_API_URL) is probably wrong (GitHub Enterprise Server: https://HOST/api/v3/)", apiURL)
	case errors.As(err, &resp) && resp.Response != nil:
		return fmt.Errorf("GitHub answered %d to GET /app: %s", resp.Response.StatusCode, resp.Message)
	case errors.As(err, &netErr):
		return fmt.Errorf("cannot reach GitHub at %s: check github.v3_api_url (GITHUB_V3_API_URL) and the network: %w", apiURL, err)
	}
	return fmt.Errorf("GET /app: %w", err)
}

// apiPath is the path of the REST API's base URL, which the metrics read routes after.
func apiPath(v3URL string) string {
	u, err := url.Parse(v3URL)
	if err != nil || u.Path == "" {
		return "/"
	}
	return u.Path
}

// NewLogger returns the app's JSON logger at level (info when empty or unknown); the
// dispatcher puts it in every request's context, without which go-githubapp logs nothing.
func NewLogger(w io.Writer, level string) zerolog.Logger {
	lvl, _ := LogLevel(level) // info when unknown
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}

// LogLevel reads a log level setting (CLARIFY_LOG_LEVEL), for the server and the Action
// alike: debug, info, warn or error; empty is info.
func LogLevel(s string) (zerolog.Level, bool) {
	switch s {
	case "debug":
		return zerolog.DebugLevel, true
	case "", "info":
		return zerolog.InfoLevel, true
	case "warn":
		return zerolog.WarnLevel, true
	case "error":
		return zerolog.ErrorLevel, true
	}
	return zerolog.InfoLevel, false
}
