package app

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/gregjones/httpcache"
	lru "github.com/hashicorp/golang-lru"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"
	"github.com/rs/zerolog/hlog"

	"github.com/clarify-app/clarify/handlers"
)

// cacheEntries bounds each installation client's HTTP cache (go-githubapp keeps 64 clients).
const cacheEntries = 512

// App is the assembled GitHub App: its HTTP handler, the scheduler to drain on shutdown,
// and the sweep that a ticker or an external scheduler runs.
type App struct {
	Handler   http.Handler
	Scheduler *handlers.Scheduler
	Sweep     *handlers.Sweep
	// Redeliver asks GitHub again for deliveries that never got through; serve runs it
	// at start and after every sweep.
	Redeliver *handlers.Redeliver
}

// NewApp is the composition root: every handler the app has is listed here.
func NewApp(cfg Config, logger zerolog.Logger, now func() time.Time) (*App, error) {
	clients, err := githubapp.NewDefaultCachingClientCreator(cfg.Github,
		githubapp.WithClientUserAgent("clarify-app"),
		// One deadline covers a request and its retries, with room for a secondary
		// limit's minute-long wait.
		githubapp.WithClientTimeout(2*time.Minute),
		// alwaysValidate: a cached ledger must never be trusted without asking GitHub.
		githubapp.WithClientCaching(true, newHTTPCache),
		// Retry outermost, so that every attempt counts against the sweep's budget and
		// every write sent again is paced.
		githubapp.WithClientMiddleware(handlers.RetryTransient(cfg.Retry), handlers.CountRequests,
			handlers.PaceWrites(cfg.Clarify.WritesPerMinute)),
	)
	if err != nil {
		return nil, err
	}
	base := handlers.NewBase(clients, cfg.Clarify.AppSlug, cfg.LedgerKeyBytes(), now)
	base.PreviousKeys = cfg.PreviousLedgerKeys()
	sched := handlers.NewScheduler(cfg.Clarify.Workers)
	sched.Timeout = cfg.Clarify.HandlerTimeout

	dispatcher := githubapp.NewEventDispatcher([]githubapp.EventHandler{
		&handlers.IssueComment{Base: base},
		&handlers.Issues{Base: base},
	}, cfg.Github.App.WebhookSecret, githubapp.WithScheduler(sched))

	mux := http.NewServeMux()
	mux.Handle(githubapp.DefaultWebhookRoute, http.MaxBytesHandler(requireSignature([]byte(cfg.Github.App.WebhookSecret), dispatcher), MaxWebhookBody))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	sweep := &handlers.Sweep{Base: base, Budget: cfg.Clarify.SweepBudget}
	redeliver := &handlers.Redeliver{Clients: clients, Now: now}
	return &App{Handler: hlog.NewHandler(logger)(mux), Scheduler: sched, Sweep: sweep, Redeliver: redeliver}, nil
}

// requireSignature answers 401 to a delivery without a valid X-Hub-Signature-256 before
// anything else reads it; go-githubapp would answer 400, which hides an attack or a
// misconfigured secret among malformed payloads.
func requireSignature(secret []byte, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "request body too large or unreadable", http.StatusRequestEntityTooLarge)
			return
		}
		sig := r.Header.Get(github.SHA256SignatureHeader)
		if sig == "" || github.ValidateSignature(sig, body, secret) != nil {
			hlog.FromRequest(r).Warn().Str(githubapp.LogKeyDeliveryID, r.Header.Get("X-GitHub-Delivery")).
				Msg("Refused a delivery without a valid signature")
			http.Error(w, "missing or invalid X-Hub-Signature-256", http.StatusUnauthorized)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// NewLogger returns the app's JSON logger at level (info when empty or unknown); the
// dispatcher puts it in every request's context, without which go-githubapp logs nothing.
func NewLogger(w io.Writer, level string) zerolog.Logger {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		lvl = zerolog.InfoLevel
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger()
}

// lruCache is a bounded httpcache.Cache, so ETags save rate limit without growing forever.
type lruCache struct{ c *lru.Cache }

func newHTTPCache() httpcache.Cache {
	c, _ := lru.New(cacheEntries) // fails only for a size below 1
	return lruCache{c}
}

// Get returns a cached response, as httpcache.Cache asks.
func (l lruCache) Get(key string) ([]byte, bool) {
	v, ok := l.c.Get(key)
	if !ok {
		return nil, false
	}
	return v.([]byte), true
}

// Set caches a response, evicting the least recently used past the bound.
func (l lruCache) Set(key string, b []byte) { l.c.Add(key, b) }

// Delete drops a cached response.
func (l lruCache) Delete(key string) { l.c.Remove(key) }
