package ghtransport

import (
	"context"
	"slices"
	"sync"
	"time"
)

// PaceLimits is what a PaceStore needs to know of the pacer's settings, defaults applied.
type PaceLimits struct {
	// PerMinute and PerHour bound the writes; 0 or less is no bound.
	PerMinute, PerHour int
	// Minute is how long a minute is; an hour is 60 of them.
	Minute time.Duration
	// Spacing is the least time between two writes, if positive.
	Spacing time.Duration
}

// MinuteWindow and HourWindow are how long a write holds its place after its answer, in
// each window: GitHub's minute and hour and a thousandth more, since GitHub's clock and
// the one the window is kept on each tick at their own rate (NTP slews a clock by at most
// 500 parts per million), so that GitHub's minute, measured on ours, may be that much
// longer.
func (l PaceLimits) MinuteWindow() time.Duration { return l.Minute + l.Minute/1000 }

// HourWindow is MinuteWindow's for the hour.
func (l PaceLimits) HourWindow() time.Duration { h := 60 * l.Minute; return h + h/1000 }

// PaceLapse is how long a write may stay on its way before the window takes it as answered:
// a process that sends a write always reports its answer (Done), so only a write whose
// sender died stays open, and GitHub itself ends a request after ten seconds.
const PaceLapse = 10 * time.Minute

// Slot is when a request may go. A write that may go has a Place in the installation's
// windows, which it keeps until its answer (Done) and a window after; a write without one
// depends on writes still on their way, whose answers say when it may go: it asks again
// at At, the earliest it could.
type Slot struct {
	At time.Time
	// Place names the write's place for Done; 0 for a read, or a write that asks again.
	Place int64
}

// PaceStore keeps each installation's windows of writes, its hold and its strikes, and
// decides atomically when a request may go, so that concurrent senders (goroutines, or
// replicas) never both take the last place.
//
// The rule: GitHub counts a write when it arrives, which is somewhere between the moment
// it was let go and the moment its answer came back, however long that took. So a write
// holds its place from when it is let go until a window (MinuteWindow, HourWindow) after
// its answer, and while it is on its way it holds it without end. A write may go at a
// time when fewer than the limit hold a place; every write that could share one of
// GitHub's windows with it then holds one, whatever their delays. A write whose time
// depends on a write still on its way takes no place, and asks again when that write's
// window could end at the earliest: the moment it asked, and a window.
type PaceStore interface {
	// Reserve returns when the installation may send: past any hold and, for a write,
	// when a place is free in both windows; a write's place is taken at once, so that
	// writers queue in order.
	Reserve(ctx context.Context, inst int64, now time.Time, write bool, lim PaceLimits) (Slot, error)
	// Done says that the write of place came back (answered, failed or given up) at now.
	Done(ctx context.Context, inst int64, place int64, now time.Time) error
	// Hold makes every request of the installation wait from now until the given time,
	// unless a later hold is already there.
	Hold(ctx context.Context, inst int64, now, until time.Time) error
	// Refused records a strike (Limit.Strikes), l, at now, of a request let go at sent: the
	// installation holds for l.StrikeWait and paces at Struck limits until DecayStrikes
	// has forgotten it. A request let go before the last strike was recorded is of that
	// strike (it left before the pacer knew), and holds without striking again.
	Refused(ctx context.Context, inst int64, sent, now time.Time, l Limit) error
}

// MemoryPaceStore is the PaceStore of a single process.
type MemoryPaceStore struct {
	mu      sync.Mutex
	windows map[int64]*paceWindow
}

var _ PaceStore = (*MemoryPaceStore)(nil)

// paceWindow is one installation's writes in the last hour (in the order of their places),
// the time before which nothing is sent, and its strikes as counted when the last was
// struck (DecayStrikes says how many are left).
type paceWindow struct {
	writes  []paceWrite
	hold    time.Time
	strikes int
	struck  time.Time
	seq     int64
}

// paceWrite is one write's place: when it may go, and when its answer came (zero while on
// its way).
type paceWrite struct {
	place    int64
	start    time.Time
	answered time.Time
}

// Reserve decides when the installation may send, as PaceStore says.
func (m *MemoryPaceStore) Reserve(_ context.Context, inst int64, now time.Time, write bool, lim PaceLimits) (Slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.window(inst, now, lim)
	at := maxTime(now, w.hold)
	if !write {
		return Slot{At: at}, nil
	}
	lim = lim.Struck(DecayStrikes(w.strikes, w.struck, now))
	if n := len(w.writes); n > 0 {
		last := w.writes[n-1].start
		at = maxTime(at, last)
		if lim.Spacing > 0 {
			at = maxTime(at, last.Add(lim.Spacing))
		}
	}
	at = fit(at, now, w.writes, lim.PerMinute, lim.MinuteWindow())
	at = fit(at, now, w.writes, lim.PerHour, lim.HourWindow())
	if !sure(at, w.writes, lim.PerMinute, lim.MinuteWindow()) || !sure(at, w.writes, lim.PerHour, lim.HourWindow()) {
		return Slot{At: at}, nil
	}
	w.seq++
	w.writes = append(w.writes, paceWrite{place: w.seq, start: at})
	return Slot{At: at, Place: w.seq}, nil
}

// fit returns the first time from at when fewer than limit writes may still hold a place,
// taking a write on its way as answered now: no sooner can the installation send.
func fit(at, now time.Time, writes []paceWrite, limit int, window time.Duration) time.Time {
	if limit <= 0 || len(writes) < limit {
		return at
	}
	ends := make([]time.Time, len(writes))
	for i, x := range writes {
		if x.answered.IsZero() {
			ends[i] = maxTime(now, x.start).Add(window)
		} else {
			ends[i] = x.answered.Add(window)
		}
	}
	slices.SortFunc(ends, func(a, b time.Time) int { return b.Compare(a) })
	return maxTime(at, ends[limit-1])
}

// sure reports whether fewer than limit writes hold a place at at however late the writes
// on their way are answered.
func sure(at time.Time, writes []paceWrite, limit int, window time.Duration) bool {
	if limit <= 0 {
		return true
	}
	n := 0
	for _, x := range writes {
		if x.answered.IsZero() || x.answered.Add(window).After(at) {
			n++
		}
	}
	return n < limit
}

// Done notes when the write of place came back.
func (m *MemoryPaceStore) Done(_ context.Context, inst int64, place int64, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.get(inst)
	for i := range w.writes {
		if x := &w.writes[i]; x.place == place && x.answered.IsZero() {
			// Never before the write could go: a clock read early cannot shorten its place.
			x.answered = maxTime(now, x.start)
		}
	}
	return nil
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

// Refused records a strike.
func (m *MemoryPaceStore) Refused(_ context.Context, inst int64, sent, now time.Time, l Limit) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.get(inst)
	n := DecayStrikes(w.strikes, w.struck, now)
	if n == 0 || !sent.Before(w.struck) {
		// Counted from now: the strikes left, and this one.
		w.strikes, w.struck = n+1, maxTime(w.struck, now)
		n = w.strikes
	}
	w.hold = maxTime(w.hold, now.Add(l.StrikeWait(n)))
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// window returns the installation's window, its writes on their way past PaceLapse taken
// as answered then, pruned of the writes whose place has ended.
func (m *MemoryPaceStore) window(inst int64, now time.Time, lim PaceLimits) *paceWindow {
	w := m.get(inst)
	kept := w.writes[:0]
	for _, x := range w.writes {
		if lapse := x.start.Add(PaceLapse); x.answered.IsZero() && !lapse.After(now) {
			x.answered = lapse
		}
		if x.answered.IsZero() || x.answered.Add(lim.HourWindow()).After(now) {
			kept = append(kept, x)
		}
	}
	w.writes = kept
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
