package redisstate_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/delivery"
	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

func TestDeliveryClaims(t *testing.T) {
	srv := redistest.Start(t)
	short := func(o *redisstate.Options) { o.LeaseTTL = leaseTTL }
	a, _ := replica(t, srv.URL, short)
	b, _ := replica(t, srv.URL, short)
	ctx := context.Background()
	claim := func(s *redisstate.Store, id string) (handlers.ClaimState, func(bool)) {
		t.Helper()
		st, finish, err := s.Deliveries().Claim(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return st, finish
	}

	st, finish := claim(a, "ok")
	if st != handlers.ClaimTaken {
		t.Fatalf("a new delivery: %v", st)
	}
	time.Sleep(leaseTTL * 3 / 2) // beyond the TTL: renewed while its run lasts
	if st, _ := claim(b, "ok"); st != handlers.ClaimHeld {
		t.Fatalf("a delivery in hand on another replica: %v, want held", st)
	}
	finish(true)
	if st, _ := claim(b, "ok"); st != handlers.ClaimDone {
		t.Fatalf("a delivery that ran: %v, want done", st)
	}

	_, finish = claim(a, "failed")
	finish(false)
	st, finish = claim(b, "failed")
	if st != handlers.ClaimTaken {
		t.Fatalf("a delivery whose run failed: %v, want it runnable again (a redelivery)", st)
	}
	finish(true)
}

// schedulerOn is one replica's scheduler, sharing deliveries seen through Redis.
func schedulerOn(t *testing.T, url string) *delivery.Scheduler {
	s, _ := replica(t, url, func(o *redisstate.Options) { o.LeaseTTL = 300 * time.Millisecond })
	sched := delivery.NewScheduler(2)
	sched.Seen = s.Deliveries()
	sched.RetryDelay = time.Millisecond
	sched.OnError = func(context.Context, githubapp.Dispatch, error) {}
	t.Cleanup(func() { _ = sched.Drain(context.Background()) })
	return sched
}

type handlerFunc func(ctx context.Context) error

func (handlerFunc) Handles() []string { return []string{"issue_comment"} }
func (f handlerFunc) Handle(ctx context.Context, _, _ string, _ []byte) error {
	return f(ctx)
}

func TestADeliverySentToTwoReplicasRunsOnce(t *testing.T) {
	srv := redistest.Start(t)
	a, b := schedulerOn(t, srv.URL), schedulerOn(t, srv.URL)
	var runs atomic.Int32
	slow := handlerFunc(func(context.Context) error {
		runs.Add(1)
		time.Sleep(50 * time.Millisecond)
		return nil
	})
	for i, s := range []*delivery.Scheduler{a, b, a, b} { // the twin while the first runs, then redeliveries
		if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: slow, EventType: "issue_comment", DeliveryID: "guid-1"}); err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		if i == 1 {
			a.Wait()
			b.Wait()
		}
	}
	a.Wait()
	b.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("one delivery sent four times ran %d times, want once", n)
	}
}

func TestATwinRunsWhenTheFirstRunFails(t *testing.T) {
	srv := redistest.Start(t)
	a, b := schedulerOn(t, srv.URL), schedulerOn(t, srv.URL)
	a.Retries = 0
	var mu sync.Mutex
	var ran []string
	run := func(who string, err error) handlerFunc {
		return func(context.Context) error {
			mu.Lock()
			ran = append(ran, who)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
			return err
		}
	}
	d := githubapp.Dispatch{EventType: "issue_comment", DeliveryID: "guid-2"}
	d.Handler = run("a", errors.New("GitHub answered 502"))
	if err := a.Schedule(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	d.Handler = run("b", nil)
	if err := b.Schedule(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	a.Wait()
	b.Wait()
	if len(ran) != 2 || ran[0] != "a" || ran[1] != "b" {
		t.Errorf("runs %v: want the first replica's failed run, then its twin's on the other", ran)
	}
}
