package handlers

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/palantir/go-githubapp/githubapp"
)

// DefaultWritesPerMinute keeps an installation under GitHub's secondary limit of 80
// content-creating requests a minute, with room for the people using the same app.
const DefaultWritesPerMinute = 60

// writeBurst is how many writes may go out at once before pacing sets in: one event's
// worth (a round comment, the status, a reaction, labels) never waits.
const writeBurst = 10

// PaceWrites returns a client middleware that spaces the mutating requests of each
// installation client to perMinute, after a burst of writeBurst; 0 turns pacing off.
// GitHub asks integrations to pace writes rather than fire them concurrently, and
// answers a burst past its secondary limit with 403s that can end in a ban.
// go-githubapp builds the middleware once per client, and clients are per installation.
func PaceWrites(perMinute int) githubapp.ClientMiddleware {
	return func(next http.RoundTripper) http.RoundTripper {
		if perMinute <= 0 {
			return next
		}
		b := newBucket(perMinute, writeBurst, time.Now, sleepCtx)
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				if err := b.take(r.Context()); err != nil {
					return nil, err
				}
			}
			return next.RoundTrip(r)
		})
	}
}

// bucket is a token bucket with an injected clock, so tests can check the pacing without
// timing anything.
type bucket struct {
	mu     sync.Mutex
	every  time.Duration
	burst  float64
	tokens float64
	last   time.Time
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error
}

func newBucket(perMinute, burst int, now func() time.Time, sleep func(context.Context, time.Duration) error) *bucket {
	return &bucket{every: time.Minute / time.Duration(perMinute), burst: float64(burst), tokens: float64(burst),
		last: now(), now: now, sleep: sleep}
}

// take waits until a token is free and takes it.
func (b *bucket) take(ctx context.Context) error {
	b.mu.Lock()
	now := b.now()
	b.tokens = min(b.burst, b.tokens+float64(now.Sub(b.last))/float64(b.every))
	b.last = now
	b.tokens-- // may go negative: later takers queue behind this one
	wait := time.Duration(0)
	if b.tokens < 0 {
		wait = time.Duration(-b.tokens * float64(b.every))
	}
	b.mu.Unlock()
	if wait == 0 {
		return nil
	}
	return b.sleep(ctx, wait)
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
