package redisstate_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

func TestIssueLeasesSerialiseOneIssueAcrossReplicas(t *testing.T) {
	srv := redistest.Start(t)
	var locks [3]handlers.IssueLocks // three processes, each with its own in-process locks
	for i := range locks {
		s, _ := replica(t, srv.URL, nil)
		locks[i].Shared = s.IssueLeases()
	}
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			unlock, err := locks[i%3].Lock(context.Background(), "octo/widgets#42")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			inside.Add(-1)
			unlock()
		})
	}
	// Another issue is not held up by #42's queue.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	other, err := locks[1].Lock(ctx, "octo/widgets#43")
	if err != nil {
		t.Fatalf("issue #43 waited on #42: %v", err)
	}
	other()
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d runs held issue #42 at once across replicas", most.Load())
	}
}

// leaseTTL is the lease of the tests that watch one outlive its TTL: long enough that a
// renewal (every third of it) is not missed on a machine busy with the race detector.
const leaseTTL = time.Second

func TestIssueLeaseOutlivesItsTTLWhileHeldAndRunsOutWhenItsHolderDies(t *testing.T) {
	srv := redistest.Start(t)
	short := func(o *redisstate.Options) { o.LeaseTTL = leaseTTL }
	a, _ := replica(t, srv.URL, short)
	b, _ := replica(t, srv.URL, short)

	unlock, err := a.IssueLeases().Lock(context.Background(), "octo/widgets#1")
	if err != nil {
		t.Fatal(err)
	}
	// Renewed while held: three TTLs later, the other replica still waits.
	ctx, cancel := context.WithTimeout(context.Background(), 3*leaseTTL)
	_, err = b.IssueLeases().Lock(ctx, "octo/widgets#1")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("another replica took a held lease: %v", err)
	}
	unlock()

	// A holder that died (killed mid-run) renews nothing: its lease runs out after the TTL.
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	if err := rdb.Set(context.Background(), "clarify:test:lease:issue:octo/widgets#2", "dead", leaseTTL).Err(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ctx, cancel = context.WithTimeout(context.Background(), 10*leaseTTL)
	defer cancel()
	unlock, err = b.IssueLeases().Lock(ctx, "octo/widgets#2")
	if err != nil {
		t.Fatalf("the lease of a dead holder never ran out: %v", err)
	}
	unlock()
	if waited := time.Since(start); waited < leaseTTL/2 {
		t.Errorf("took a lease a live holder could still have had after %v", waited)
	}
}

func TestSweepLeaseLetsOneReplicaSweepAnInterval(t *testing.T) {
	srv := redistest.Start(t)
	a, _ := replica(t, srv.URL, nil)
	b, _ := replica(t, srv.URL, nil)
	ctx := context.Background()

	release, ok, err := a.SweepLease().Acquire(ctx, 800*time.Millisecond)
	if err != nil || !ok {
		t.Fatalf("the first sweeper: ok=%v err=%v", ok, err)
	}
	if _, ok, _ := b.SweepLease().Acquire(ctx, 800*time.Millisecond); ok {
		t.Fatal("two replicas swept at once")
	}
	release()
	// Released before its interval is over: the other replica's ticker still finds it held.
	if _, ok, _ := b.SweepLease().Acquire(ctx, 800*time.Millisecond); ok {
		t.Fatal("another replica swept again within the interval")
	}
	time.Sleep(time.Second)
	release, ok, _ = b.SweepLease().Acquire(ctx, 0)
	if !ok {
		t.Fatal("the lease was not free after the interval")
	}
	release() // no hold: free at once
	if release, ok, _ := a.SweepLease().Acquire(ctx, 0); !ok {
		t.Error("a lease released without a hold stayed taken")
	} else {
		release()
	}
}
