package redisstate_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// slowGitHub counts writes when they arrive (fakegithub.ContentWindow), each taking no
// time or transit to get there, drawn at random; in a synctest bubble, whose clock its
// sleep moves.
type slowGitHub struct {
	transit time.Duration
	mu      sync.Mutex
	rng     *rand.Rand
	content fakegithub.ContentWindow
}

func (g *slowGitHub) RoundTrip(*http.Request) (*http.Response, error) {
	g.mu.Lock()
	d := time.Duration(g.rng.IntN(2)) * g.transit
	g.mu.Unlock()
	time.Sleep(d)
	g.mu.Lock()
	secs, ok := g.content.Arrive(1, time.Now())
	g.mu.Unlock()
	if !ok {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {strconv.Itoa(secs)}}, Body: http.NoBody}, nil
	}
	return &http.Response{StatusCode: http.StatusCreated, Header: http.Header{}, Body: http.NoBody}, nil
}

// TestReplicasWithSkewedClocksShareOneWindow: three replicas whose clocks are 6 s behind,
// right and 9 s ahead share one Redis, and send a burst of 540 writes between them to a
// GitHub that counts them when they arrive, up to 10 s after they leave. GitHub refuses
// none: the shared window is kept on one clock (Redis's; here the bubble's), whatever the
// replicas' say.
func TestReplicasWithSkewedClocksShareOneWindow(t *testing.T) {
	srv := redistest.Start(t)
	synctest.Test(t, func(t *testing.T) {
		gh := &slowGitHub{transit: 10 * time.Second, rng: rand.New(rand.NewPCG(3, 4)),
			content: fakegithub.ContentWindow{Limit: fakegithub.ContentLimit{PerMinute: 80, PerHour: 500, Minute: time.Minute}}}
		var wg sync.WaitGroup
		start := time.Now()
		for i, skew := range []time.Duration{-6 * time.Second, 0, 9 * time.Second} {
			s, _ := replica(t, srv.URL, func(o *redisstate.Options) { o.Prefix = "skew:"; o.PaceClock = time.Now })
			p := &ghtransport.Pacer{Store: s.PaceStore(), Now: func() time.Time { return time.Now().Add(skew) }}
			mw := p.Middleware()(gh)
			for range 20 + 10*i { // 90 senders, 6 writes each
				wg.Go(func() {
					for range 6 {
						req, _ := http.NewRequestWithContext(ghtransport.WithInstallation(context.Background(), 1), http.MethodPost, "http://api.invalid/x", nil)
						if _, err := mw.RoundTrip(req); err != nil {
							t.Error(err)
						}
					}
				})
			}
		}
		wg.Wait()
		t.Logf("540 writes from three replicas with skewed clocks, each up to 10 s on its way: %v, %d refused",
			time.Since(start).Round(time.Second), gh.content.Refused)
		if gh.content.Refused != 0 {
			t.Errorf("GitHub refused %d writes", gh.content.Refused)
		}
	})
}
