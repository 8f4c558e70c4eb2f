package ghtransport

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Low-priority writes.
//
// Check runs are a courtesy: a clarification's round, answer and labels are what people
// wait on. So a write marked low priority (WithLowPriority) is sent only while the
// installation's writes of the last minute and hour, as this process let them through,
// leave a quarter of each limit free; otherwise it is not sent at all (ErrDeferred), rather
// than queued, since a queued write would hold a place in the pacer's window ahead of the
// clarifications behind it. The next event of the pull request or issue writes it then.
// The count is this process's own: replicas each keep the reserve of what they sent.

// ErrDeferred is the error of a low-priority write not sent, to leave its place to others.
var ErrDeferred = errors.New("low-priority write deferred: the installation's writes are near GitHub's limits")

type lowPriorityKey struct{}

// WithLowPriority marks ctx's writes as the app's lowest priority (check runs).
func WithLowPriority(ctx context.Context) context.Context {
	return context.WithValue(ctx, lowPriorityKey{}, true)
}

func lowPriority(ctx context.Context) bool {
	low, _ := ctx.Value(lowPriorityKey{}).(bool)
	return low
}

// writeLog is, per installation, when this process let its writes through in the last hour.
type writeLog struct {
	mu   sync.Mutex
	sent map[int64][]time.Time
}

// note records a write let through at now, forgetting those older than an hour.
func (w *writeLog) note(inst int64, now time.Time, lim PaceLimits) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent == nil {
		w.sent = map[int64][]time.Time{}
	}
	w.sent[inst] = append(recent(w.sent[inst], now, 60*lim.Minute), now)
}

// room reports whether a low-priority write leaves a quarter of each limit free.
func (w *writeLog) room(inst int64, now time.Time, lim PaceLimits) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	hour := recent(w.sent[inst], now, 60*lim.Minute)
	minute := recent(hour, now, lim.Minute)
	return below(len(minute), lim.PerMinute) && below(len(hour), lim.PerHour)
}

// below reports whether n writes leave a quarter of limit free (no limit: always).
func below(n, limit int) bool { return limit <= 0 || n < limit-max(1, limit/4) }

// recent is the tail of sent (ascending) within window of now.
func recent(sent []time.Time, now time.Time, window time.Duration) []time.Time {
	i := 0
	for i < len(sent) && !sent[i].After(now.Add(-window)) {
		i++
	}
	return sent[i:]
}

// admit lets a request through the pacer: a low-priority write without room is deferred,
// any other waits for its place (returned, for Done); each write let through is noted.
func (p *Pacer) admit(ctx context.Context, inst int64, write bool) (int64, error) {
	if write && lowPriority(ctx) && !p.writes.room(inst, p.now(), p.limits()) {
		return 0, ErrDeferred
	}
	place, err := p.wait(ctx, inst, write)
	if err != nil {
		return 0, err
	}
	if write {
		p.writes.note(inst, p.now(), p.limits())
	}
	return place, nil
}
