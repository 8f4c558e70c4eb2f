package app

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"
	"github.com/rs/zerolog/hlog"

	"github.com/clarify-app/clarify/internal/metrics"
)

// The ingress: what stands between anyone on the internet and the dispatcher. Anyone can
// open a connection to the webhook and announce 25 MB; only GitHub can sign one. So an
// unverified body holds only the bytes that actually arrived (in chunks of bodyChunk,
// reserved as they come, never by Content-Length up front), each body must keep up a
// minimum rate, and when the budget is spent the body in flight furthest behind its pace
// (past its grace) is dropped to make room for the newcomer: stalled and trickling senders
// hold next to nothing and cannot push GitHub's deliveries out, whatever address they come
// from (behind a proxy, everyone shares one). Only while every other body is within its
// grace is the newcomer refused instead.

// retryAfterBusy is the Retry-After of a delivery dropped for want of room. GitHub does not
// retry by itself; the app's redelivery, after the next sweep, asks for it again.
const retryAfterBusy = "60"

// requireSignature reads a delivery's body within the budget, then answers 401 to one
// without a valid X-Hub-Signature-256 before anything else sees it; go-githubapp would
// answer 400, which hides an attack or a misconfigured secret among malformed payloads.
func requireSignature(secret []byte, budget *BodyBudget, m *metrics.Metrics, next http.Handler) http.Handler {
	refusals := newRefusalLog(refusalLogInterval)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logger := hlog.FromRequest(r).With().Str(githubapp.LogKeyDeliveryID, r.Header.Get("X-GitHub-Delivery")).Logger()
		refused := func(outcome string, status int, msg string, ev *zerolog.Event) {
			m.Delivery(metrics.EventUnverified, outcome)
			refusals.log(clientOf(r), ev)
			if status == http.StatusServiceUnavailable {
				w.Header().Set("Retry-After", retryAfterBusy)
			}
			refuse(w, status, msg)
		}
		n := r.ContentLength
		sig, sigOK := parseSignature(r.Header.Get(github.SHA256SignatureHeader))
		switch {
		case n < 0:
			// GitHub always sends Content-Length; without it the body's end is unknown.
			refused(metrics.OutcomeBadRequest, http.StatusLengthRequired, "Content-Length is required",
				logger.Warn().Str("reason", "no Content-Length"))
			return
		case n > MaxWebhookBody:
			refused(metrics.OutcomeBadRequest, http.StatusRequestEntityTooLarge, "request body too large: GitHub sends at most 25 MB",
				logger.Warn().Int64("content_length", n).Str("reason", "over GitHub's payload cap"))
			return
		case !sigOK:
			// Nothing without a well-formed signature can be GitHub's: refused unread.
			refused(metrics.OutcomeBadSignature, http.StatusUnauthorized, "missing or invalid X-Hub-Signature-256",
				logger.Warn().Str("reason", "no well-formed signature"))
			return
		}
		body, ok, err := budget.read(w, r, n, hmac.New(sha256.New, secret), sig)
		switch {
		case errors.Is(err, errDropped):
			refused(metrics.OutcomeBusy, http.StatusServiceUnavailable, "busy: too many deliveries being read; try again later",
				logger.Warn().Int64("content_length", n).Int64("held", budget.Held()).
					Str("reason", "dropped to make room: the bytes held for unverified bodies are at clarify.max_unverified_body_bytes; it will be redelivered"))
			return
		case err != nil:
			refused(metrics.OutcomeBadRequest, http.StatusBadRequest, "the body ended before its Content-Length or came too slowly",
				logger.Warn().Err(err).Int64("content_length", n).Str("reason", "body stalled, too slow or ended early"))
			return
		case !ok:
			refused(metrics.OutcomeBadSignature, http.StatusUnauthorized, "missing or invalid X-Hub-Signature-256",
				logger.Warn().Str("reason", "signature does not match"))
			return
		}
		r.Body = io.NopCloser(body)
		next.ServeHTTP(w, r)
	})
}

// parseSignature reads "sha256=<64 hex digits>".
func parseSignature(h string) ([]byte, bool) {
	hexSig, ok := strings.CutPrefix(h, "sha256=")
	if !ok || len(hexSig) != 2*sha256.Size {
		return nil, false
	}
	sig, err := hex.DecodeString(hexSig)
	return sig, err == nil
}

// clientOf is the address a refusal is logged under: the peer's IP without its port, so
// that a client reconnecting from new ports is still one client.
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// refuse answers status and closes the connection, so that the server does not read on
// through a body it refused in order to keep the connection alive.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// Timeouts of NewServer. GitHub sends a delivery whole and gives up after 10 s: a
// connection that trickles its headers or body, or idles, is closed rather than held.
// The body is also held to BodyBudget's minimum rate, which cuts a stalled one far sooner.
const (
	serverReadHeaderTimeout = 5 * time.Second
	serverReadTimeout       = 30 * time.Second
	serverWriteTimeout      = 30 * time.Second
	serverIdleTimeout       = 2 * time.Minute
	// GitHub's headers are a few kB; net/http's default of 1 MB a connection is room for
	// nothing but abuse.
	serverMaxHeaderBytes = 64 << 10
)

// NewServer returns the HTTP server `bot serve` runs h with, at cfg's address. ReadTimeout
// bounds a request from its first byte to the last of its body, whatever its rate; the
// fields are the server's, and tests shorten them.
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

// errDropped is a body given up to make room for another.
var errDropped = errors.New("dropped to make room for another delivery")

// chunkedBody is a verified body read back from its chunks, without copying them together.
func chunkedBody(chunks [][]byte) io.Reader {
	rs := make([]io.Reader, len(chunks))
	for i, c := range chunks {
		rs[i] = bytes.NewReader(c)
	}
	return io.MultiReader(rs...)
}
