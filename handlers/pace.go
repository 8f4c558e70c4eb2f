package handlers

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
)

// GitHub's documented secondary limits on content-creating requests, per minute and per
// hour. Which requests count is not documented, so every write is counted.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	DefaultWritesPerMinute = 80
	DefaultWritesPerHour   = 500
)

// spreadBelow is how few primary-limit requests may be left before the pacer spreads the
// rest evenly until the reset, instead of spending them and being refused.
const spreadBelow = 100

// Pacer keeps each installation's writes under GitHub's secondary limits: at most
// PerMinute in any minute and PerHour in any hour, counted on one sliding window per
// installation however many clients send them. It also holds every request of an
// installation that GitHub told to wait (Retry-After), and spreads its last requests
// when the primary limit is nearly spent, so that GitHub never has to refuse.
type Pacer struct {
	// PerMinute and PerHour bound the writes of one installation; 0 takes the default,
	// a negative value turns that bound off.
	PerMinute, PerHour int
	// Minute is how long a minute is (tests shorten it); an hour is 60 of them.
	Minute time.Duration
	// Spacing, if set, is the least time between two writes of an installation: GitHub's
	// advice of one second, for an operator who prefers it to the limits.
	Spacing time.Duration
	// Now and Sleep are the clock; nil means the real one.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error

	mu      sync.Mutex
	windows map[int64]*paceWindow
	unnamed atomic.Int64
}

// paceWindow is one installation's writes in the last hour (the times they were let
// through, ascending) and the time before which nothing is sent.
type paceWindow struct {
	sent []time.Time
	hold time.Time
}

type installationKey struct{}

// withInstallation marks ctx as working for installation id, so that the pacer counts the
// requests made with it against that installation.
func withInstallation(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, installationKey{}, id)
}

// Middleware returns the client middleware that paces requests through p. go-githubapp
// builds it once per client; clients of one installation share its window through the
// context their requests carry (withInstallation), and a request without one is paced
// on its client's own window.
func (p *Pacer) Middleware() githubapp.ClientMiddleware {
	return func(next http.RoundTripper) http.RoundTripper {
		own := -1 - p.unnamed.Add(1) // installation ids are positive
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			inst, ok := r.Context().Value(installationKey{}).(int64)
			if !ok {
				inst = own
			}
			write := r.Method != http.MethodGet && r.Method != http.MethodHead
			if err := p.wait(r.Context(), inst, write); err != nil {
				if r.Body != nil {
					_ = r.Body.Close()
				}
				return nil, err
			}
			resp, err := next.RoundTrip(r)
			if err == nil {
				p.observe(inst, resp)
			}
			return resp, err
		})
	}
}

// wait sleeps until the installation may send: past any hold and, for a write, until a
// place in both windows is free. The place is taken before sleeping, so writers queue in
// order.
func (p *Pacer) wait(ctx context.Context, inst int64, write bool) error {
	p.mu.Lock()
	now := p.now()
	w := p.window(inst, now)
	at := now
	if w.hold.After(at) {
		at = w.hold
	}
	if write {
		if n := len(w.sent); n > 0 && w.sent[n-1].After(at) {
			at = w.sent[n-1]
		}
		if n := len(w.sent); n > 0 && p.Spacing > 0 {
			at = maxTime(at, w.sent[n-1].Add(p.Spacing))
		}
		// A second's margin a minute: GitHub counts a write when it arrives, a little
		// after it is let through here, and its clock is not ours.
		margin := p.minute() / 60
		at = later(at, w.sent, p.perMinute(), p.minute()+margin)
		at = later(at, w.sent, p.perHour(), 60*p.minute()+margin)
		w.sent = append(w.sent, at)
	}
	p.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return p.sleep(ctx, d)
	}
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// later returns the first time from at when fewer than limit of sent fall in the window
// that ends there.
func later(at time.Time, sent []time.Time, limit int, window time.Duration) time.Time {
	if limit <= 0 || len(sent) < limit {
		return at
	}
	if free := sent[len(sent)-limit].Add(window); free.After(at) {
		return free
	}
	return at
}

// observe reads what GitHub says of the installation's limits: a Retry-After holds all its
// requests that long, and a primary limit nearly spent spaces the rest until its reset.
func (p *Pacer) observe(inst int64, resp *http.Response) {
	now := p.now()
	var until time.Time
	if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests {
		if d, ok := retryAfter(resp.Header, now); ok {
			until = now.Add(d)
		}
	}
	if left, ok := headerInt(resp.Header, "X-RateLimit-Remaining"); ok && left < spreadBelow {
		if reset, ok := headerInt(resp.Header, "X-RateLimit-Reset"); ok {
			if d := time.Unix(reset, 0).Sub(now); d > 0 {
				if spaced := now.Add(d / time.Duration(left+1)); spaced.After(until) {
					until = spaced
				}
			}
		}
	}
	if until.IsZero() {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if w := p.window(inst, now); until.After(w.hold) {
		w.hold = until
	}
}

// window returns the installation's window, pruned of writes older than an hour.
func (p *Pacer) window(inst int64, now time.Time) *paceWindow {
	if p.windows == nil {
		p.windows = map[int64]*paceWindow{}
	}
	w := p.windows[inst]
	if w == nil {
		w = &paceWindow{}
		p.windows[inst] = w
	}
	cut := now.Add(-60 * p.minute())
	i := 0
	for i < len(w.sent) && !w.sent[i].After(cut) {
		i++
	}
	w.sent = w.sent[i:]
	return w
}

func (p *Pacer) perMinute() int { return orDefault(p.PerMinute, DefaultWritesPerMinute) }
func (p *Pacer) perHour() int   { return orDefault(p.PerHour, DefaultWritesPerHour) }

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func (p *Pacer) minute() time.Duration {
	if p.Minute <= 0 {
		return time.Minute
	}
	return p.Minute
}

func (p *Pacer) now() time.Time {
	if p.Now == nil {
		return time.Now()
	}
	return p.Now()
}

func (p *Pacer) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep == nil {
		return sleepCtx(ctx, d)
	}
	return p.Sleep(ctx, d)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// installationClient returns the installation's client, and ctx marked for it, so that
// the pacer counts the requests made with both on the installation's window.
func (b *Base) installationClient(ctx context.Context, id int64) (context.Context, *github.Client, error) {
	client, err := b.Clients.NewInstallationClient(id)
	return withInstallation(ctx, id), client, err
}
