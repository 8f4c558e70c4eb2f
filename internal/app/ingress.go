package app

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog/hlog"

	"github.com/clarify-app/clarify/internal/metrics"
)

// BodyBudget bounds the bytes held, all connections together, for delivery bodies whose
// signature is not checked yet. Anyone can send those: without a bound, unsigned 25 MB
// bodies trickled in on many connections would hold as much memory as there are
// connections, for as long as the read timeout.
type BodyBudget struct {
	mu   sync.Mutex
	max  int64
	held int64
	peak int64
}

// NewBodyBudget returns a budget of limit bytes.
func NewBodyBudget(limit int64) *BodyBudget { return &BodyBudget{max: limit} }

// TryReserve takes n bytes if they fit, and never waits: a delivery that waited for room
// would hold its connection (and GitHub's 10 s) for nothing, while one refused now is
// redelivered later.
func (b *BodyBudget) TryReserve(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+n > b.max {
		return false
	}
	b.held += n
	b.peak = max(b.peak, b.held)
	return true
}

// Release gives back n bytes that TryReserve took.
func (b *BodyBudget) Release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held -= n
}

// Held is the bytes reserved now.
func (b *BodyBudget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// Peak is the most ever reserved at once: what shows that the bound held.
func (b *BodyBudget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Max is the budget's bound.
func (b *BodyBudget) Max() int64 { return b.max }

// retryAfterBusy is the Retry-After of a delivery refused for want of room. GitHub does not
// retry by itself; the app's redelivery, after the next sweep, asks for it again.
const retryAfterBusy = "60"

// requireSignature reads a delivery's body within the budget, then answers 401 to one
// without a valid X-Hub-Signature-256 before anything else sees it; go-githubapp would
// answer 400, which hides an attack or a misconfigured secret among malformed payloads.
// The body's room is reserved from Content-Length before a byte is read, and refused
// outright when there is none: waiting would let slow senders hold the rest.
func requireSignature(secret []byte, budget *BodyBudget, m *metrics.Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logger := hlog.FromRequest(r).With().Str(githubapp.LogKeyDeliveryID, r.Header.Get("X-GitHub-Delivery")).Logger()
		n := r.ContentLength
		switch {
		case n < 0:
			// GitHub always sends Content-Length; without it the room to reserve is unknown.
			m.Delivery(metrics.EventUnverified, metrics.OutcomeBadRequest)
			refuse(w, http.StatusLengthRequired, "Content-Length is required")
			return
		case n > MaxWebhookBody:
			m.Delivery(metrics.EventUnverified, metrics.OutcomeBadRequest)
			refuse(w, http.StatusRequestEntityTooLarge, "request body too large: GitHub sends at most 25 MB")
			return
		case !budget.TryReserve(n):
			logger.Warn().Int64("content_length", n).Int64("held", budget.Held()).
				Msg("Refused a delivery: the bytes held for unverified bodies are at clarify.max_unverified_body_bytes; it will be redelivered")
			m.Delivery(metrics.EventUnverified, metrics.OutcomeBusy)
			w.Header().Set("Retry-After", retryAfterBusy)
			refuse(w, http.StatusServiceUnavailable, "busy: too many deliveries being read; try again later")
			return
		}
		defer budget.Release(n)
		// Exactly n bytes: what is held never exceeds what was reserved.
		body := make([]byte, n)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			logger.Warn().Err(err).Int64("content_length", n).Msg("Dropped a delivery whose body stalled or ended early")
			m.Delivery(metrics.EventUnverified, metrics.OutcomeBadRequest)
			refuse(w, http.StatusBadRequest, "the body ended before its Content-Length or came too slowly")
			return
		}
		sig := r.Header.Get(github.SHA256SignatureHeader)
		if sig == "" || github.ValidateSignature(sig, body, secret) != nil {
			logger.Warn().Msg("Refused a delivery without a valid signature")
			m.Delivery(metrics.EventUnverified, metrics.OutcomeBadSignature)
			http.Error(w, "missing or invalid X-Hub-Signature-256", http.StatusUnauthorized)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// refuse answers status and closes the connection, so that the server does not read on
// through a body it refused in order to keep the connection alive.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// Timeouts of NewServer. GitHub sends a delivery whole and gives up after 10 s: a
// connection that trickles its headers or body, or idles, is closed rather than held.
const (
	serverReadHeaderTimeout = 10 * time.Second
	serverReadTimeout       = 30 * time.Second
	serverWriteTimeout      = 30 * time.Second
	serverIdleTimeout       = 2 * time.Minute
	// GitHub's headers are a few kB; net/http's default of 1 MB a connection is room for
	// nothing but abuse.
	serverMaxHeaderBytes = 64 << 10
)

// NewServer returns the HTTP server `bot serve` runs h with, at cfg's address. ReadTimeout
// runs from the first byte of a request to the last of its body, so it is what closes a
// connection whose body stalls; the fields are the server's, and tests shorten them.
func NewServer(cfg Config, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              net.JoinHostPort(cfg.Server.Address, strconv.Itoa(cfg.Server.Port)),
		Handler:           h,
		ReadHeaderTimeout: serverReadHeaderTimeout,
		ReadTimeout:       serverReadTimeout,
		WriteTimeout:      serverWriteTimeout,
		IdleTimeout:       serverIdleTimeout,
		MaxHeaderBytes:    serverMaxHeaderBytes,
	}
}
