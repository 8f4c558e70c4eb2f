package ghtransport

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestALowPriorityWriteLeavesAQuarterOfTheLimitsToTheOthers: check runs (low priority) are
// sent while a quarter of the installation's minute is left free, then deferred without
// being sent or queued, while a clarification's write still goes at once.
func TestALowPriorityWriteLeavesAQuarterOfTheLimitsToTheOthers(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	p.PerMinute, p.PerHour = 8, -1
	sent := 0
	mw := p.Middleware()(roundTripperFunc(func(*http.Request) (*http.Response, error) {
		sent++
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
	}))
	write := func(low bool) error {
		ctx := WithInstallation(context.Background(), 1)
		if low {
			ctx = WithLowPriority(ctx)
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://api.invalid/x", nil)
		_, err := mw.RoundTrip(req)
		return err
	}
	for i := range 6 {
		if err := write(i%2 == 0); err != nil {
			t.Fatalf("write %d with room to spare: %v", i+1, err)
		}
	}
	if err := write(true); !errors.Is(err, ErrDeferred) || sent != 6 {
		t.Fatalf("a low-priority write with a quarter of the minute left: %v (%d sent), want ErrDeferred and nothing sent", err, sent)
	}
	if err := write(false); err != nil || sent != 7 || len(c.waits) != 0 {
		t.Fatalf("a clarification's write after the deferred one: %v, %d sent, waits %v; want it sent at once", err, sent, c.waits)
	}
	c.now = c.now.Add(time.Minute + time.Second)
	if err := write(true); err != nil {
		t.Fatalf("a low-priority write once the minute has passed: %v", err)
	}
}
