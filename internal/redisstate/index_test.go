package redisstate_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// TestIndexAnswersAsTheMemoryOne writes the same entries to both indexes, from two
// replicas for the Redis one, and expects the same answers, in the same order; an entry
// without a deadline (an escalated issue) is listed with its repository and never due.
func TestIndexAnswersAsTheMemoryOne(t *testing.T) {
	srv := redistest.Start(t)
	a, _ := replica(t, srv.URL, nil)
	b, _ := replica(t, srv.URL, nil)
	ctx := context.Background()
	var mem handlers.LocalIndex
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	entry := func(inst int64, repo string, n int, due time.Duration) handlers.IndexEntry {
		return handlers.IndexEntry{Installation: inst, Owner: "octo", Repo: repo, Number: n, Due: t0.Add(due), Seen: t0.Add(-due),
			Waits: []clarify.WaitFor{{Issue: n, ID: fmt.Sprintf("CLR-%d-001", n), From: "coder-agent", To: "maria", AskerPriority: 1}}}
	}
	puts := []handlers.IndexEntry{
		entry(1, "widgets", 1, time.Hour),
		entry(1, "widgets", 2, time.Minute),
		entry(1, "gadgets", 3, time.Minute), // same deadline: the key orders them
		entry(2, "widgets", 4, 2*time.Hour),
		entry(1, "widgets", 1, 30*time.Second), // replaces #1's entry
		entry(1, "widgets", 5, time.Minute),
		// #5 escalated: kept, without a deadline, so never due.
		{Installation: 1, Owner: "octo", Repo: "widgets", Number: 5, Seen: t0},
	}
	replicas := []handlers.DeadlineIndex{a.Index(), b.Index()}
	for i, e := range puts {
		_ = mem.Put(ctx, e)
		if err := replicas[i%2].Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	gone := entry(1, "widgets", 2, time.Minute)
	_ = mem.Remove(ctx, gone)
	if err := b.Index().Remove(ctx, gone); err != nil {
		t.Fatal(err)
	}

	for _, at := range []time.Duration{0, 45 * time.Second, time.Minute, 3 * time.Hour} {
		want, _ := mem.Due(ctx, t0.Add(at))
		got, err := a.Index().Due(ctx, t0.Add(at))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Due(t0+%v):\n got %v\nwant %v", at, got, want)
		}
		for _, e := range got {
			if e.Number == 5 {
				t.Errorf("Due(t0+%v) returned #5, whose entry has no deadline", at)
			}
		}
	}
	for _, r := range []struct {
		inst int64
		repo string
	}{{1, "widgets"}, {1, "gadgets"}, {2, "widgets"}, {2, "gadgets"}} {
		want, _ := mem.Repo(ctx, r.inst, "octo", r.repo)
		got, err := b.Index().Repo(ctx, r.inst, "octo", r.repo)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Repo(%d, octo/%s):\n got %v\nwant %v", r.inst, r.repo, got, want)
		}
	}
}
