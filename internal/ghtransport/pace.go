package ghtransport

import (
	"context"
	"net/http"
	"sync"
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

// PaceLimits is what a PaceStore needs to know of the pacer's settings, defaults applied.
type PaceLimits struct {
	// PerMinute and PerHour bound the writes; 0 or less is no bound.
	PerMinute, PerHour int
	// Minute is how long a minute is; an hour is 60 of them.
	Minute time.Duration
	// Spacing is the least time between two writes, if positive.
	Spacing time.Duration
}

// Margin is the slack added to each window: GitHub counts a write when it arrives, a
// little after it is let through here, and its clock is not ours, so its minute, seen from
// here, may last a few seconds longer; one write past the limit is refused, and GitHub
// answers repeated hits with longer blocks. Five seconds a minute (80 writes in any 65
// seconds, some 74 a minute), and never under minMargin, since the way to GitHub does not
// shrink with a shortened minute.
func (l PaceLimits) Margin() time.Duration { return max(l.Minute/12, minMargin) }

// minMargin is the least slack: more than a loaded machine's delay between letting a
// write through and its arrival.
const minMargin = 250 * time.Millisecond

// PaceStore keeps each installation's sliding window of writes and its hold, and decides
// atomically when a request may go, so that concurrent senders (goroutines, or replicas)
// never both take the last place.
type PaceStore interface {
	// Reserve returns the earliest time from now when the installation may send: past any
	// hold and, for a write, when a place is free in both windows; a write's place is
	// taken at once, so that writers queue in order.
	Reserve(ctx context.Context, inst int64, now time.Time, write bool, lim PaceLimits) (time.Time, error)
	// Hold makes every request of the installation wait from now until the given time,
	// unless a later hold is already there.
	Hold(ctx context.Context, inst int64, now, until time.Time) error
}

// MemoryPaceStore is the PaceStore of a single process.
type MemoryPaceStore struct {
	mu      sync.Mutex
	windows map[int64]*paceWindow
}

var _ PaceStore = (*MemoryPaceStore)(nil)

// paceWindow is one installation's writes in the last hour (the times they were let
// through, ascending) and the time before which nothing is sent.
type paceWindow struct {
	sent []time.Time
	hold time.Time
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
			if err := p.admit(r.Context(), inst, write); err != nil {
				if r.Body != nil {
					_ = r.Body.Close()
				}
				return nil, err
			}
			resp, err := next.RoundTrip(r)
			if err == nil {
				p.observe(r.Context(), inst, resp)
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

// wait sleeps until the installation may send: past any hold and, for a write, until a
// place in both windows is free.
func (p *Pacer) wait(ctx context.Context, inst int64, write bool) error {
	now := p.now()
	at, err := p.store(inst).Reserve(ctx, inst, now, write, p.limits())
	if err != nil {
		return err
	}
	if d := at.Sub(now); d > 0 {
		if p.OnWait != nil {
			p.OnWait(write, d)
		}
		return p.sleep(ctx, d)
	}
	return nil
}

// Reserve decides when the installation may send, as PaceStore says.
func (m *MemoryPaceStore) Reserve(_ context.Context, inst int64, now time.Time, write bool, lim PaceLimits) (time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.window(inst, now, lim)
	at := now
	if w.hold.After(at) {
		at = w.hold
	}
	if write {
		if n := len(w.sent); n > 0 && w.sent[n-1].After(at) {
			at = w.sent[n-1]
		}
		if n := len(w.sent); n > 0 && lim.Spacing > 0 {
			at = maxTime(at, w.sent[n-1].Add(lim.Spacing))
		}
		at = later(at, w.sent, lim.PerMinute, lim.Minute+lim.Margin())
		at = later(at, w.sent, lim.PerHour, 60*lim.Minute+lim.Margin())
		w.sent = append(w.sent, at)
	}
	return at, nil
}

// Hold holds the installation's requests until the given time.
func (m *MemoryPaceStore) Hold(_ context.Context, inst int64, _, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.get(inst); until.After(w.hold) {
		w.hold = until
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

// observe holds every request of the installation for as long as GitHub's answer asks
// (ReadLimit): after a rate limit, and while the last requests before a nearly spent
// primary limit's reset are spread.
func (p *Pacer) observe(ctx context.Context, inst int64, resp *http.Response) {
	now := p.now()
	d := ReadLimit(resp, now).Hold()
	if d <= 0 {
		return
	}
	// A hold that cannot be recorded is not worth failing a request that GitHub answered:
	// the next refusal sets it again.
	_ = p.store(inst).Hold(ctx, inst, now, now.Add(d))
}

// window returns the installation's window, pruned of writes older than an hour and its
// margin (the longest window a write still counts in).
func (m *MemoryPaceStore) window(inst int64, now time.Time, lim PaceLimits) *paceWindow {
	w := m.get(inst)
	cut := now.Add(-60*lim.Minute - lim.Margin())
	i := 0
	for i < len(w.sent) && !w.sent[i].After(cut) {
		i++
	}
	w.sent = w.sent[i:]
	return w
}

func (m *MemoryPaceStore) get(inst int64) *paceWindow {
	if m.windows == nil {
		m.windows = map[int64]*paceWindow{}
	}
	w := m.windows[inst]
	if w == nil {
		w = &paceWindow{}
		m.windows[inst] = w
	}
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
