package ghtransport

import (
	"context"
	"net/http"
	"time"
)

// GitHub's documented secondary limits on content-creating requests, per minute and per
// hour. Which requests count is not documented, so every write is counted.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
const (
	DefaultWritesPerMinute = 80
	DefaultWritesPerHour   = 500
)

// Pacer keeps each installation's writes under GitHub's secondary limits: at most
// PerMinute in any minute and PerHour in any hour as GitHub counts them, on arrival, on
// one sliding window per installation however many clients send them and however long
// each takes to reach GitHub (PaceStore says how). It also holds every request of an
// installation that GitHub told to wait (Retry-After) for exactly that, slows the
// installation down after a secondary-limit refusal that names no wait (strike.go), and
// spreads its last requests when the primary limit is nearly spent, so that GitHub never
// has to refuse.
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
	// Store keeps the installations' windows; nil keeps them in this process. Replicas
	// share one (through Redis), since GitHub counts an installation's writes whoever
	// sends them.
	Store PaceStore
	// OnWait, when set, is told of each request held back and for how long, for the
	// app's metrics: waits that grow say the installation writes near GitHub's limits.
	OnWait func(write bool, d time.Duration)

	// local keeps the window of requests made for no installation, the app's own, which
	// means nothing to another replica; and every window when Store is nil.
	local MemoryPaceStore
	// writes is this process's own count of the writes it let through, for WithLowPriority.
	writes writeLog
}

type installationKey struct{}

// WithInstallation marks ctx as working for installation id, so that the pacer counts the
// requests made with it against that installation.
func WithInstallation(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, installationKey{}, id)
}

// InstallationOf returns the installation ctx was marked for (WithInstallation); false
// when nothing marked it.
func InstallationOf(ctx context.Context) (int64, bool) {
	id, ok := ctx.Value(installationKey{}).(int64)
	return id, ok
}

// appWindow is the window of requests made for no installation; installation ids are
// positive.
const appWindow = -1

// Middleware returns the client middleware that paces requests through p. go-githubapp
// builds it once per client; clients of one installation share its window through the
// context their requests carry (WithInstallation), and a request without one is paced
// on its client's own window.
func (p *Pacer) Middleware() Middleware {
	return func(next http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			inst, ok := InstallationOf(r.Context())
			if !ok {
				// The app's own requests (installations, deliveries): one window for
				// them all, as they are one app's, and one window is all they leave.
				inst = appWindow
			}
			write := r.Method != http.MethodGet && r.Method != http.MethodHead
			place, err := p.admit(r.Context(), inst, write)
			if err != nil {
				if r.Body != nil {
					_ = r.Body.Close()
				}
				return nil, err
			}
			sent := p.now()
			resp, err := next.RoundTrip(r)
			if place != 0 {
				// Whatever came back, the write may have reached GitHub by now: its place
				// lasts a window from here. Told even when the request's context has ended.
				_ = p.store(inst).Done(context.WithoutCancel(r.Context()), inst, place, p.now())
			}
			if err == nil {
				p.observe(r.Context(), inst, sent, resp)
			}
			return resp, err
		})
	}
}

// store is where the installation's window lives.
func (p *Pacer) store(inst int64) PaceStore {
	if p.Store == nil || inst < 0 {
		return &p.local
	}
	return p.Store
}

func (p *Pacer) limits() PaceLimits {
	return PaceLimits{PerMinute: p.perMinute(), PerHour: p.perHour(), Minute: p.minute(), Spacing: p.Spacing}
}

// wait sleeps until the installation may send: past any hold and, for a write, until it
// has a place in both windows, which it returns.
func (p *Pacer) wait(ctx context.Context, inst int64, write bool) (int64, error) {
	for {
		now := p.now()
		slot, err := p.store(inst).Reserve(ctx, inst, now, write, p.limits())
		if err != nil {
			return 0, err
		}
		if d := slot.At.Sub(now); d > 0 {
			if p.OnWait != nil {
				p.OnWait(write, d)
			}
			if err := p.sleep(ctx, d); err != nil {
				if slot.Place != 0 {
					_ = p.store(inst).Done(context.WithoutCancel(ctx), inst, slot.Place, p.now())
				}
				return 0, err
			}
		}
		if !write || slot.Place != 0 {
			return slot.Place, nil
		}
	}
}

// observe holds every request of the installation for as long as GitHub's answer asks
// (ReadLimit): after a rate limit that names its wait, exactly that; and while the last
// requests before a nearly spent primary limit's reset are spread. A secondary limit is a
// strike (strike.go): PaceStore.Refused holds the installation and slows its writes.
func (p *Pacer) observe(ctx context.Context, inst int64, sent time.Time, resp *http.Response) {
	now := p.now()
	l := ReadLimit(resp, now)
	// A hold that cannot be recorded is not worth failing a request that GitHub answered:
	// the next refusal sets it again.
	d := l.Hold()
	if l.Strikes() {
		_ = p.store(inst).Refused(ctx, inst, sent, now, l)
		d = l.Spread
	}
	if d > 0 {
		_ = p.store(inst).Hold(ctx, inst, now, now.Add(d))
	}
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
		return Sleep(ctx, d)
	}
	return p.Sleep(ctx, d)
}

// Sleep waits d, or until ctx ends and then says why.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
