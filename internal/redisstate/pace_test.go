package redisstate_test

import (
	"context"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// TestPaceStoreDecidesAsTheMemoryOne plays one random sequence of reads, writes, holds and
// clock steps against the in-memory store and the Redis one: the times they let each
// request through must be the same, so that replicas pace exactly as one process does.
func TestPaceStoreDecidesAsTheMemoryOne(t *testing.T) {
	srv := redistest.Start(t)
	s, _ := replica(t, srv.URL, nil)
	shared := s.PaceStore()
	var mem ghtransport.MemoryPaceStore
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	// Minutes whose margin (a twelfth, or its floor) is whole microseconds, Redis's resolution here.
	lims := []ghtransport.PaceLimits{
		{PerMinute: 5, PerHour: 12, Minute: 1200 * time.Millisecond},
		{PerMinute: 3, PerHour: -1, Minute: 1200 * time.Millisecond, Spacing: 100 * time.Millisecond},
		{PerMinute: -1, PerHour: 4, Minute: 1200 * time.Millisecond},
	}
	delayed := 0
	for i := range 600 {
		lim := lims[i/200]
		inst := int64(1 + rng.IntN(2))
		switch r := rng.IntN(10); {
		case r < 6:
			write := rng.IntN(3) > 0
			want, _ := mem.Reserve(ctx, inst, now, write, lim)
			got, err := shared.Reserve(ctx, inst, now, write, lim)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("step %d (installation %d, write %v at %v): Redis lets it go at %v, memory at %v", i, inst, write, now, got, want)
			}
			if got.After(now) {
				delayed++
			}
		case r < 7:
			until := now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			_ = mem.Hold(ctx, inst, now, until)
			if err := shared.Hold(ctx, inst, now, until); err != nil {
				t.Fatal(err)
			}
		default:
			now = now.Add(time.Duration(rng.IntN(400)) * time.Millisecond)
		}
	}
	if delayed < 50 {
		t.Errorf("only %d requests were held back: the sequence does not test the limits", delayed)
	}
}

// TestPacerCountsTheWritesOfEveryReplica: GitHub counts an installation's writes whichever
// replica sends them, so the 81st write in a minute waits though each replica sent 40.
func TestPacerCountsTheWritesOfEveryReplica(t *testing.T) {
	srv := redistest.Start(t)
	clk := newClock()
	var waits []time.Duration
	pacer := func() *ghtransport.Pacer {
		s, _ := replica(t, srv.URL, nil)
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
	if len(waits) != 1 || waits[0] != time.Minute+5*time.Second {
		t.Errorf("the fleet's 81st write waited %v, want a minute and the margin's 5 seconds", waits)
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
