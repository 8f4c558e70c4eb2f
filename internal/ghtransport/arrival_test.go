package ghtransport

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// arrivalGitHub counts an installation's writes as GitHub's secondary limit does, when
// they arrive, on its own clock (fakegithub.ContentWindow). The way there and the way back
// each take no time or transit (a connection free, or stalled behind a busy transport),
// drawn at random: the worst for a window, since writes let go together arrive up to
// transit apart. A write past a limit is refused with Retry-After, or, when noWait, as a
// secondary limit that names no wait. It runs in a synctest bubble, whose clock its sleeps
// move.
type arrivalGitHub struct {
	transit time.Duration
	noWait  bool
	// clock is GitHub's clock, which is not the pacer's.
	clock func() time.Time

	mu      sync.Mutex
	rng     *rand.Rand
	content fakegithub.ContentWindow
}

func newArrivalGitHub(perMinute int, transit time.Duration, seed uint64) *arrivalGitHub {
	return &arrivalGitHub{transit: transit, clock: time.Now, rng: rand.New(rand.NewPCG(seed, 42)),
		content: fakegithub.ContentWindow{Limit: fakegithub.ContentLimit{PerMinute: perMinute, PerHour: DefaultWritesPerHour, Minute: time.Minute}}}
}

func (g *arrivalGitHub) delay() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.transit <= 0 || g.rng.IntN(2) == 0 {
		return 0
	}
	return g.transit
}

func (g *arrivalGitHub) RoundTrip(r *http.Request) (*http.Response, error) {
	time.Sleep(g.delay())
	g.mu.Lock()
	secs, ok := g.content.Arrive(1, g.clock())
	g.mu.Unlock()
	time.Sleep(g.delay())
	switch {
	case !ok && g.noWait:
		return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(`{"message":"You have exceeded a secondary rate limit."}`))}, nil
	case !ok:
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {strconv.Itoa(secs)}}, Body: http.NoBody}, nil
	}
	return &http.Response{StatusCode: http.StatusCreated, Header: http.Header{}, Body: http.NoBody}, nil
}

// refused counts the writes GitHub refused.
func (g *arrivalGitHub) refused() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.content.Refused
}

// burst sends senders×writes writes through mw at once: senders at once, each sending its
// writes one after the other, as the runs of a burst of asks do. It returns how long
// they took on the bubble's clock.
func burst(t *testing.T, mw http.RoundTripper, senders, writes int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			for range writes {
				req, _ := http.NewRequestWithContext(WithInstallation(context.Background(), 1), http.MethodPatch, "http://api.invalid/x", nil)
				if _, err := mw.RoundTrip(req); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// TestPacerLeavesRoomForTransitUnderTheContentLimit sends a burst of 600 writes (100
// senders of 6 each, past both of GitHub's limits) through the pacer at its default limits
// to a GitHub that counts them when they arrive, each way taking up to 10 s, with the
// pacer's clock off GitHub's: none may be refused, since GitHub answers repeated hits with
// longer blocks. It prints the burst's time at each delay.
func TestPacerLeavesRoomForTransitUnderTheContentLimit(t *testing.T) {
	cases := []struct {
		transit, skew time.Duration
	}{{0, 0}, {time.Second, -3 * time.Second}, {10 * time.Second, 7 * time.Second}, {10 * time.Second, -90 * time.Second}}
	for i, tc := range cases {
		synctest.Test(t, func(t *testing.T) {
			gh := newArrivalGitHub(DefaultWritesPerMinute, tc.transit, uint64(i))
			p := &Pacer{Now: func() time.Time { return time.Now().Add(tc.skew) }}
			took := burst(t, p.Middleware()(gh), 100, 6)
			t.Logf("each way at once or after %v, the pacer's clock %v off GitHub's: 600 writes in %v, %d refused",
				tc.transit, tc.skew, took.Round(time.Second), gh.refused())
			if n := gh.refused(); n != 0 {
				t.Errorf("each way up to %v, clock %v off: %d of 600 writes refused", tc.transit, tc.skew, n)
			}
		})
	}
}

// TestARefusalSlowsTheInstallationDown: GitHub may refuse below its documented limits
// ("for undisclosed reasons"), naming its wait or not; here it takes 50 writes a minute
// while the pacer allows 80. The first refusal must slow the installation down (a strike:
// 40 a minute), not be met again each minute: the only writes refused are the 30 of the
// first 80, already on their way when it came.
func TestARefusalSlowsTheInstallationDown(t *testing.T) {
	for name, noWait := range map[string]bool{"namingItsWait": false, "namingNoWait": true} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				gh := newArrivalGitHub(50, time.Second, 7)
				gh.noWait = noWait
				p := &Pacer{}
				took := burst(t, p.Middleware()(gh), 100, 2)
				t.Logf("200 writes to a GitHub that takes 50 a minute: %v, %d refused", took.Round(time.Second), gh.refused())
				if n := gh.refused(); n != 30 {
					t.Errorf("GitHub refused %d writes, want only the 30 past its limit sent before its first refusal came", n)
				}
			})
		})
	}
}
