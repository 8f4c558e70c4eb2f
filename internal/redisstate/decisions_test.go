package redisstate_test

import (
	"context"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// TestADecisionOneReplicaMadeIsRecentOnTheOther: what one replica adds the other reads,
// per repository, until RecentDecisionsFor has passed.
func TestADecisionOneReplicaMadeIsRecentOnTheOther(t *testing.T) {
	srv := redistest.Start(t)
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	clock := func(o *redisstate.Options) { o.Now = func() time.Time { return now } }
	a, _ := replica(t, srv.URL, clock)
	b, _ := replica(t, srv.URL, clock)
	ctx := context.Background()
	d := clarify.Decision{ID: "CLR-42-001", Issue: 42, Topic: "Cache scope", Decision: "Per user.", By: "maria", At: now}
	if err := a.Decisions().Add(ctx, "octo/widgets", []clarify.Decision{d}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Decisions().Recent(ctx, "octo/widgets")
	if err != nil || len(got) != 1 || got[0].ID != d.ID || got[0].Decision != d.Decision || !got[0].At.Equal(d.At) {
		t.Fatalf("the other replica reads %+v (%v), want %+v", got, err, d)
	}
	if other, _ := b.Decisions().Recent(ctx, "octo/gadgets"); len(other) != 0 {
		t.Errorf("another repository reads %+v", other)
	}
	now = now.Add(handlers.RecentDecisionsFor + time.Second)
	if late, _ := b.Decisions().Recent(ctx, "octo/widgets"); len(late) != 0 {
		t.Errorf("past RecentDecisionsFor the decision is still recent: %+v", late)
	}
}
