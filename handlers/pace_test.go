package handlers

import (
	"context"
	"testing"
	"time"
)

func TestBucketLetsABurstThroughThenPaces(t *testing.T) {
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var waits []time.Duration
	b := newBucket(60, 3, func() time.Time { return now }, func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	})
	for i := 0; i < 5; i++ {
		if err := b.take(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// 60 a minute is one a second: the burst of 3 passes, then the 4th and 5th queue.
	if len(waits) != 2 || waits[0] != time.Second || waits[1] != 2*time.Second {
		t.Fatalf("waits %v, want [1s 2s]", waits)
	}
	now = now.Add(10 * time.Second) // time refills the bucket, up to the burst
	waits = nil
	for i := 0; i < 3; i++ {
		_ = b.take(context.Background())
	}
	if len(waits) != 0 {
		t.Errorf("after a quiet spell the burst should pass again, waited %v", waits)
	}
}
