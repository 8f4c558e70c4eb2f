package ghtransport

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Defaults of RetryOptions. Four attempts with backoff of 1 s, 2 s and 4 s ride out the
// short 5xx spells GitHub has; the waits are capped so that a run never sleeps through a
// primary limit that resets in an hour.
const (
	DefaultRetryAttempts  = 4
	DefaultRetryBaseDelay = time.Second
	DefaultRetryMaxDelay  = 8 * time.Second
	// DefaultRetryMaxWait is one minute because that is what GitHub asks for after a
	// secondary limit that names no time of its own.
	DefaultRetryMaxWait      = time.Minute
	DefaultRetryMaxTotalWait = 90 * time.Second
)

// Log keys of a retried request, beside the handler's own.
const (
	LogKeyRetryMethod  = "retry_method"
	LogKeyRetryPath    = "retry_path"
	LogKeyRetryAttempt = "retry_attempt"
	LogKeyRetryWait    = "retry_wait"
	LogKeyRetryFault   = "retry_fault"
)

// RetryOptions tunes RetryTransient; a zero field takes its Default* value.
type RetryOptions struct {
	// Attempts bounds how many times one request is sent, the first included.
	Attempts int
	// BaseDelay is the backoff before the second attempt; it doubles up to MaxDelay.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// MaxWait is the longest single wait the transport accepts, whatever GitHub asks:
	// a longer one hands GitHub's answer back to the caller at once.
	MaxWait time.Duration
	// MaxTotalWait bounds all the waits of one request together.
	MaxTotalWait time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx ends; nil means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter spreads a backoff delay d so that replicas that failed together do not come
	// back together; nil draws from [d/2, d). Waits GitHub names are never jittered.
	Jitter func(d time.Duration) time.Duration
	// OnLimit, when set, is told of each answer that was a rate limit, "secondary" or
	// "primary", for the app's metrics: GitHub refused it, whether or not it is retried.
	OnLimit func(limit string)
}

// RetryTransient returns a client middleware that retries what GitHub's faults cost,
// within bounds: a read (GET, HEAD), or a write that means the same done twice (an edit,
// a delete, adding labels or a reaction), on a 5xx, a network error or a rate limit; any
// other write only on a rate limit (429, or 403 with x-ratelimit-remaining 0, Retry-After
// or a secondary-limit message), because then GitHub says it did not happen. A comment
// posted and answered 5xx or cut off may have happened: it goes back to the caller, which
// looks for its hidden marker before sending it again. Retry-After is honoured exactly, and a primary
// limit is waited out until x-ratelimit-reset; a wait longer than MaxWait, past
// MaxTotalWait or past the request's deadline is not begun, and GitHub's answer is
// returned as it came. List it before CountRequests and the Pacer, so that every
// attempt is counted and every resent write paced.
func RetryTransient(opts RetryOptions) Middleware {
	opts = opts.withDefaults()
	return func(next http.RoundTripper) http.RoundTripper {
		return &retryTransport{next: next, opts: opts}
	}
}

func (o RetryOptions) withDefaults() RetryOptions {
	if o.Attempts <= 0 {
		o.Attempts = DefaultRetryAttempts
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = DefaultRetryBaseDelay
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = DefaultRetryMaxDelay
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultRetryMaxWait
	}
	if o.MaxTotalWait <= 0 {
		o.MaxTotalWait = DefaultRetryMaxTotalWait
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = Sleep
	}
	if o.Jitter == nil {
		o.Jitter = equalJitter
	}
	return o
}

// retryTransport is built once per client. It keeps no hold of its own: the pacer holds
// every client of the installation after a rate limit, from the same reading (ReadLimit).
type retryTransport struct {
	next http.RoundTripper
	opts RetryOptions
}

// RoundTrip sends the request and sends it again while a fault is worth retrying.
func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var waited time.Duration
	for attempt := 1; ; attempt++ {
		r, err := rewound(req, attempt)
		if err != nil {
			return nil, err
		}
		resp, err := t.next.RoundTrip(r)
		v := t.judge(req, resp, err, attempt)
		if v.limit != "" && t.opts.OnLimit != nil {
			t.opts.OnLimit(v.limit)
		}
		if !v.retry || attempt >= t.opts.Attempts || !rewindable(req) || !t.affordable(ctx, v.wait, waited) {
			return resp, err
		}
		logRetry(req, attempt, v, err)
		drainAndClose(resp)
		if err := t.opts.Sleep(ctx, v.wait); err != nil {
			return nil, err
		}
		waited += v.wait
	}
}

// logRetry says which request is sent again, after what and how soon.
func logRetry(req *http.Request, attempt int, v retryVerdict, err error) {
	ev := zerolog.Ctx(req.Context()).Info().Str(LogKeyRetryMethod, req.Method).Str(LogKeyRetryPath, req.URL.Path).
		Int(LogKeyRetryAttempt, attempt).Dur(LogKeyRetryWait, v.wait).Str(LogKeyRetryFault, v.fault())
	if err != nil {
		ev = ev.Err(err)
	}
	ev.Msg("Retrying a GitHub request after a transient fault")
}

// retryVerdict is whether, and after how long, a request may be sent again.
type retryVerdict struct {
	retry bool
	wait  time.Duration
	// limit is the rate limit that refused the request (LimitPrimary, LimitSecondary), if any.
	limit string
	// status is the 5xx answered, or 0 for a network error.
	status int
}

// fault names what went wrong, for the log.
func (v retryVerdict) fault() string {
	switch {
	case v.limit != "":
		return v.limit + " limit"
	case v.status != 0:
		return strconv.Itoa(v.status)
	}
	return "network"
}

// judge reads GitHub's answer. Rate limits come first: whatever the method, GitHub did
// not do a request it refused for a limit. Otherwise only requests that may be done twice
// are retried, because a write answered 5xx or cut off may have happened.
func (t *retryTransport) judge(req *http.Request, resp *http.Response, err error, attempt int) retryVerdict {
	read := repeatable(req)
	if err != nil {
		if !read || req.Context().Err() != nil || errors.Is(err, ErrDeferred) {
			return retryVerdict{}
		}
		return retryVerdict{retry: true, wait: t.backoff(attempt)}
	}
	if l := ReadLimit(resp, t.opts.Now()); l.Kind != "" {
		if l.Wait <= 0 { // a primary limit whose reset is past on our clock, which runs ahead of GitHub's
			l.Wait = t.backoff(attempt)
		}
		return retryVerdict{retry: true, wait: l.Wait, limit: l.Kind}
	}
	if !read {
		return retryVerdict{}
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		d, ok := retryAfter(resp.Header, t.opts.Now())
		if !ok {
			d = t.backoff(attempt)
		}
		return retryVerdict{retry: true, wait: d, status: resp.StatusCode}
	}
	return retryVerdict{}
}

// repeatable says whether sending req twice does what sending it once does: reads, and
// the writes whose second try finds the work done (an edit to the same body, a delete
// answered 404, labels and reactions GitHub keeps once). Posting a comment, or asking for
// a redelivery, is not.
func repeatable(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	case http.MethodPost:
		return strings.HasSuffix(req.URL.Path, "/labels") || strings.HasSuffix(req.URL.Path, "/reactions")
	}
	return false
}

// backoff is the jittered delay before attempt+1.
func (t *retryTransport) backoff(attempt int) time.Duration {
	d := t.opts.BaseDelay
	for i := 1; i < attempt && d < t.opts.MaxDelay; i++ {
		d *= 2
	}
	return t.opts.Jitter(min(d, t.opts.MaxDelay))
}

// equalJitter keeps at least half of the delay, so a retry never comes back at once.
func equalJitter(d time.Duration) time.Duration {
	half := d / 2
	if d-half <= 0 {
		return d
	}
	return half + rand.N(d-half)
}

// affordable says whether a wait fits the caps and the request's deadline: sleeping into
// a deadline would only trade GitHub's answer for a context error.
func (t *retryTransport) affordable(ctx context.Context, wait, waited time.Duration) bool {
	if wait > t.opts.MaxWait || waited+wait > t.opts.MaxTotalWait {
		return false
	}
	if dl, ok := ctx.Deadline(); ok && !t.opts.Now().Add(wait).Before(dl) {
		return false
	}
	return true
}

// rewindable says whether the request can be sent again: a body that cannot be read
// anew would go out empty.
func rewindable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// rewound is the request for an attempt, with a fresh copy of the body after the first.
func rewound(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 || req.Body == nil || req.Body == http.NoBody {
		return req, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r := *req
	r.Body = body
	return &r, nil
}

// drainAndClose drains a little of a response that will not be returned, so its connection
// can be reused, and closes it.
func drainAndClose(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, limitBodyPeek))
	_ = resp.Body.Close()
}
