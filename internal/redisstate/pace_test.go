package redisstate_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// paceTwins are the in-memory pace store and the Redis one, given the same calls.
type paceTwins struct {
	t      *testing.T
	mem    ghtransport.MemoryPaceStore
	shared *redisstate.PaceStore
	// open lists the places each gave the same write, until its Done.
	open []twinPlace
	// delayed counts the requests held back, again the writes told to ask again.
	delayed, again int
}

type twinPlace struct{ inst, mem, redis int64 }

// reserve asks both when a request may go; they must say the same.
func (p *paceTwins) reserve(ctx context.Context, step int, inst int64, now time.Time, write bool, lim ghtransport.PaceLimits) {
	want, _ := p.mem.Reserve(ctx, inst, now, write, lim)
	got, err := p.shared.Reserve(ctx, inst, now, write, lim)
	if err != nil {
		p.t.Fatal(err)
	}
	if !got.At.Equal(want.At) || (got.Place == 0) != (want.Place == 0) {
		p.t.Fatalf("step %d (installation %d, write %v at %v): Redis gives %+v, memory %+v", step, inst, write, now, got, want)
	}
	if got.At.After(now) {
		p.delayed++
	}
	if write && got.Place == 0 {
		p.again++
	}
	if got.Place != 0 {
		p.open = append(p.open, twinPlace{inst, want.Place, got.Place})
	}
}

// done answers the k-th open write in both.
func (p *paceTwins) done(ctx context.Context, k int, now time.Time) {
	o := p.open[k]
	p.open = append(p.open[:k], p.open[k+1:]...)
	_ = p.mem.Done(ctx, o.inst, o.mem, now)
	if err := p.shared.Done(ctx, o.inst, o.redis, now); err != nil {
		p.t.Fatal(err)
	}
}

// TestPaceStoreDecidesAsTheMemoryOne plays one random sequence of reads, writes, their
// answers, holds, refusals and clock steps against the in-memory store and the Redis one:
// the times they let each request through, and whether a write got its place, must be the
// same, so that replicas pace exactly as one process does.
func TestPaceStoreDecidesAsTheMemoryOne(t *testing.T) {
	srv := redistest.Start(t)
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	s, _ := replica(t, srv.URL, func(o *redisstate.Options) { o.PaceClock = func() time.Time { return now } })
	twins := &paceTwins{t: t, shared: s.PaceStore()}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	// Minutes whose windows (a thousandth longer) are whole microseconds, Redis's resolution here.
	lims := []ghtransport.PaceLimits{
		{PerMinute: 5, PerHour: 12, Minute: 1200 * time.Millisecond},
		{PerMinute: 3, PerHour: -1, Minute: 1200 * time.Millisecond, Spacing: 100 * time.Millisecond},
		{PerMinute: -1, PerHour: 4, Minute: 1200 * time.Millisecond},
	}
	for i := range 900 {
		inst := int64(1 + rng.IntN(2))
		switch r := rng.IntN(20); {
		case r < 10:
			twins.reserve(ctx, i, inst, now, rng.IntN(3) > 0, lims[i/300])
		case r < 14 && len(twins.open) > 0:
			twins.done(ctx, rng.IntN(len(twins.open)), now)
		case r < 15:
			until := now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			_ = twins.mem.Hold(ctx, inst, now, until)
			if err := twins.shared.Hold(ctx, inst, now, until); err != nil {
				t.Fatal(err)
			}
		case r < 16:
			sent := now.Add(-time.Duration(rng.IntN(2000)) * time.Millisecond)
			_ = twins.mem.Refused(ctx, inst, sent, now, ghtransport.Limit{Kind: ghtransport.LimitSecondary})
			if err := twins.shared.Refused(ctx, inst, sent, now, ghtransport.Limit{Kind: ghtransport.LimitSecondary}); err != nil {
				t.Fatal(err)
			}
		case r < 17 && rng.IntN(20) == 0:
			// Past a write's lapse, or the quiet that forgets a strike.
			now = now.Add([]time.Duration{ghtransport.PaceLapse, ghtransport.StrikeQuiet}[rng.IntN(2)])
		default:
			now = now.Add(time.Duration(rng.IntN(400)) * time.Millisecond)
		}
	}
	if twins.delayed < 50 || twins.again < 10 {
		t.Errorf("only %d requests were held back and %d writes asked again: the sequence does not test the limits", twins.delayed, twins.again)
	}
}

// TestPacerCountsTheWritesOfEveryReplica: GitHub counts an installation's writes whichever
// replica sends them, so the 81st write in a minute waits though each replica sent 40.
func TestPacerCountsTheWritesOfEveryReplica(t *testing.T) {
	srv := redistest.Start(t)
	clk := newClock()
	var waits []time.Duration
	pacer := func() *ghtransport.Pacer {
		s, _ := replica(t, srv.URL, func(o *redisstate.Options) { o.PaceClock = clk.Now })
		return &ghtransport.Pacer{Store: s.PaceStore(), Now: clk.Now, Sleep: func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			clk.Advance(d)
			return nil
		}}
	}
	ok := roundTripper(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusCreated, Header: http.Header{}, Body: http.NoBody}, nil
	})
	a, b := pacer().Middleware()(ok), pacer().Middleware()(ok)
	for range 40 {
		send(t, a, http.MethodPost)
		send(t, b, http.MethodPost)
	}
	if len(waits) != 0 {
		t.Fatalf("80 writes in a minute are within GitHub's limit, yet the replicas waited %v", waits)
	}
	send(t, a, http.MethodPost)
	if len(waits) != 1 || waits[0] != time.Minute+60*time.Millisecond {
		t.Errorf("the fleet's 81st write waited %v, want a minute and a thousandth", waits)
	}

	// A Retry-After seen by one replica holds the other's requests too.
	limited := pacer().Middleware()(roundTripper(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"Retry-After": {"30"}}, Body: http.NoBody}, nil
	}))
	waits = nil
	clk.Advance(2 * time.Hour)
	send(t, limited, http.MethodGet)
	send(t, b, http.MethodGet)
	if len(waits) != 1 || waits[0] != 30*time.Second {
		t.Errorf("waits %v: want the other replica's next request held 30s", waits)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// send runs one request of installation 1 through a pacer's middleware.
func send(t *testing.T, mw http.RoundTripper, method string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ghtransport.WithInstallation(context.Background(), 1), method, "http://api.invalid/x", nil)
	if _, err := mw.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
}
