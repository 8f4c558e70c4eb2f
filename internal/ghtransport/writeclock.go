package ghtransport

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// ClockSlack is how far GitHub's clock (an issue's updated_at, in whole seconds) and the
// clocks of the app's processes may be from one another: what a process compares with a
// time GitHub stamped, or another process wrote, allows this much either way.
const ClockSlack = time.Minute

type writeClockKey struct{}

// WriteClock keeps GitHub's time of the last write a run made, from the Date header of
// GitHub's answers: what an issue's updated_at shows when nothing but that run has touched
// it since, on GitHub's own clock (both in whole seconds), whatever this machine's clock says.
type WriteClock struct {
	mu   sync.Mutex
	last time.Time
}

// WithWriteClock returns ctx carrying a new WriteClock, which every write made with it, by
// whatever code, moves (through NoteWrites).
func WithWriteClock(ctx context.Context) (context.Context, *WriteClock) {
	w := &WriteClock{}
	return context.WithValue(ctx, writeClockKey{}, w), w
}

// LastWrite is GitHub's time of the last write made with ctx's WriteClock; zero for none,
// or without a clock.
func LastWrite(ctx context.Context) time.Time {
	if w, ok := ctx.Value(writeClockKey{}).(*WriteClock); ok {
		return w.Last()
	}
	return time.Time{}
}

// Last is GitHub's time of the newest write GitHub accepted; zero for none.
func (w *WriteClock) Last() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// note moves the clock to at, if later.
func (w *WriteClock) note(at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if at.After(w.last) {
		w.last = at
	}
}

// NoteWrites is a client middleware that moves the WriteClock carried in a request's
// context (WithWriteClock) to the Date of each write GitHub accepted (a 2xx answer to any
// method but GET and HEAD); a request without one, a refusal and an answer without a Date
// move nothing.
func NoteWrites(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		w, ok := r.Context().Value(writeClockKey{}).(*WriteClock)
		if !ok || err != nil || r.Method == http.MethodGet || r.Method == http.MethodHead || resp.StatusCode/100 != 2 {
			return resp, err
		}
		if at, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
			w.note(at)
		}
		return resp, err
	})
}
