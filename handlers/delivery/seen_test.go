package delivery

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// seenBook is a handlers.DeliveriesSeen in a map: "done", "held", or absent.
type seenBook struct {
	mu       sync.Mutex
	state    map[string]string
	finished []bool
}

func (b *seenBook) Claim(_ context.Context, id string) (handlers.ClaimState, func(bool), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state[id] {
	case "done":
		return handlers.ClaimDone, nil, nil
	case "held":
		return handlers.ClaimHeld, nil, nil
	}
	b.state[id] = "held"
	return handlers.ClaimTaken, func(ok bool) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.finished = append(b.finished, ok)
		if ok {
			b.state[id] = "done"
		} else {
			delete(b.state, id)
		}
	}, nil
}

func (b *seenBook) set(id, state string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if state == "" {
		delete(b.state, id)
		return
	}
	b.state[id] = state
}

func seenScheduler(book *seenBook) *Scheduler {
	s := NewScheduler(2)
	s.Seen = book
	s.RetryDelay = time.Millisecond
	s.OnError = func(context.Context, githubapp.Dispatch, error) {}
	s.sleep = func(ctx context.Context, d time.Duration) error { return ghtransport.Sleep(ctx, time.Millisecond) }
	return s
}

func TestSchedulerRunsADeliveryOnceAndAgainOnlyAfterAFailure(t *testing.T) {
	book := &seenBook{state: map[string]string{}}
	s := seenScheduler(book)
	var runs atomic.Int32
	fail := true
	h := &fakeHandler{run: func(context.Context) error {
		runs.Add(1)
		if fail {
			return errors.New("GitHub answered 502")
		}
		return nil
	}}
	d := githubapp.Dispatch{Handler: h, EventType: "issue_comment", DeliveryID: "guid-1"}
	s.Retries = 0
	if err := s.Schedule(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	fail = false
	for range 2 { // the redelivery runs; the one after it does not
		if err := s.Schedule(context.Background(), d); err != nil {
			t.Fatalf("a redelivery: %v, want 200", err)
		}
		s.Wait()
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("ran %d times, want twice: the failed run, then its redelivery", n)
	}
	if len(book.finished) != 2 || book.finished[0] || !book.finished[1] {
		t.Errorf("finished %v, want [false true]", book.finished)
	}
}

func TestSchedulerStandsByForADeliveryHeldElsewhere(t *testing.T) {
	cases := map[string]struct {
		otherEnds string // what the run elsewhere leaves: "done", or "" (failed, or its replica died)
		wantRuns  int32
	}{
		"theOtherRunSucceedsSoThisOneDoesNotRun": {"done", 0},
		"theOtherRunFailsSoThisOneRuns":          {"", 1},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			book := &seenBook{state: map[string]string{"guid-2": "held"}}
			s := seenScheduler(book)
			var runs atomic.Int32
			h := &fakeHandler{run: func(context.Context) error { runs.Add(1); return nil }}
			if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h, EventType: "issue_comment", DeliveryID: "guid-2"}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			if runs.Load() != 0 {
				t.Fatal("ran a delivery another run holds")
			}
			book.set("guid-2", c.otherEnds)
			s.Wait()
			if n := runs.Load(); n != c.wantRuns {
				t.Errorf("ran %d times, want %d", n, c.wantRuns)
			}
		})
	}
}

func TestSchedulerGivesBackTheClaimOfADeliveryItRefuses(t *testing.T) {
	book := &seenBook{state: map[string]string{}}
	s := seenScheduler(book)
	if err := s.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := &fakeHandler{run: func(context.Context) error { return nil }}
	if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h, DeliveryID: "guid-3"}); !errors.Is(err, ErrShuttingDown) {
		t.Fatalf("err = %v, want ErrShuttingDown", err)
	}
	if len(book.finished) != 1 || book.finished[0] {
		t.Errorf("finished %v: the refused delivery must stay runnable for its redelivery", book.finished)
	}
}
