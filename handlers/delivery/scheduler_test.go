package delivery

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palantir/go-githubapp/githubapp"
)

type fakeHandler struct {
	run     func(ctx context.Context) error
	invalid bool
}

func (h *fakeHandler) Handles() []string { return []string{"issue_comment"} }
func (h *fakeHandler) Handle(ctx context.Context, _, _ string, _ []byte) error {
	return h.run(ctx)
}
func (h *fakeHandler) Validate(string, []byte) error {
	if h.invalid {
		return errors.New("bad payload")
	}
	return nil
}

func TestSchedulerAnswersAtOnceAndDrains(t *testing.T) {
	s := NewScheduler(2)
	release := make(chan struct{})
	var done atomic.Int32
	h := &fakeHandler{run: func(ctx context.Context) error {
		<-release
		if ctx.Err() != nil {
			t.Error("the handler's context was cancelled with the request's")
		}
		done.Add(1)
		return nil
	}}
	reqCtx, cancel := context.WithCancel(context.Background())
	for i := 0; i < 5; i++ {
		if err := s.Schedule(reqCtx, githubapp.Dispatch{Handler: h, EventType: "issue_comment"}); err != nil {
			t.Fatal(err)
		}
	}
	cancel() // GitHub has its answer: the request context ends
	drained := make(chan error, 1)
	go func() { drained <- s.Drain(context.Background()) }()
	time.Sleep(10 * time.Millisecond)
	if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h}); !errors.Is(err, ErrShuttingDown) {
		t.Errorf("a delivery during drain: %v, want ErrShuttingDown", err)
	}
	close(release)
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	if n := done.Load(); n != 5 {
		t.Errorf("drain returned after %d of 5 accepted deliveries", n)
	}
}

func TestSchedulerRefusesAnInvalidPayloadBeforeAccepting(t *testing.T) {
	s := NewScheduler(1)
	ran := false
	err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: &fakeHandler{invalid: true, run: func(context.Context) error { ran = true; return nil }}})
	var ve githubapp.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a ValidationError (GitHub gets 400)", err)
	}
	s.Wait()
	if ran {
		t.Error("the handler ran for an invalid payload")
	}
}

func TestSchedulerReportsErrorsAndPanics(t *testing.T) {
	s := NewScheduler(1)
	s.Retries = 0
	var mu sync.Mutex
	var got []error
	s.OnError = func(_ context.Context, _ githubapp.Dispatch, err error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err)
	}
	boom := errors.New("GitHub said 502")
	_ = s.Schedule(context.Background(), githubapp.Dispatch{Handler: &fakeHandler{run: func(context.Context) error { return boom }}})
	_ = s.Schedule(context.Background(), githubapp.Dispatch{Handler: &fakeHandler{run: func(context.Context) error { panic("bug") }}})
	s.Wait()
	if len(got) != 2 {
		t.Fatalf("got %d errors, want the failure and the panic: %v", len(got), got)
	}
}

func TestSchedulerRunsAFailedDeliveryAgainWithGrowingWaits(t *testing.T) {
	cases := map[string]struct {
		failures  int // the first runs that fail
		wantRuns  int
		wantWaits []time.Duration
		wantError bool
	}{
		"aPassingFaultHealsOnTheSecondRun": {failures: 1, wantRuns: 2, wantWaits: []time.Duration{time.Second}},
		"threeFaultsHealOnTheLastRun":      {failures: 3, wantRuns: 4, wantWaits: []time.Duration{time.Second, 4 * time.Second, 16 * time.Second}},
		"aLastingFaultIsReportedAfterFour": {failures: 9, wantRuns: 4, wantWaits: []time.Duration{time.Second, 4 * time.Second, 16 * time.Second}, wantError: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := NewScheduler(1)
			s.RetryDelay = time.Second
			var waits []time.Duration
			s.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
			var reported []error
			s.OnError = func(_ context.Context, _ githubapp.Dispatch, err error) { reported = append(reported, err) }
			runs := 0
			h := &fakeHandler{run: func(context.Context) error {
				runs++
				if runs <= tc.failures {
					return errors.New("GitHub said 502")
				}
				return nil
			}}
			if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h}); err != nil {
				t.Fatal(err)
			}
			s.Wait()
			if runs != tc.wantRuns || !slices.Equal(waits, tc.wantWaits) || (len(reported) > 0) != tc.wantError {
				t.Errorf("runs %d, waits %v, reported %v; want %d runs, waits %v, an error: %v", runs, waits, reported, tc.wantRuns, tc.wantWaits, tc.wantError)
			}
		})
	}
}

func TestSchedulerNeverRetriesABadPayload(t *testing.T) {
	s := NewScheduler(1)
	s.sleep = func(context.Context, time.Duration) error { t.Error("waited to retry a bad payload"); return nil }
	s.OnError = func(context.Context, githubapp.Dispatch, error) {}
	runs := 0
	h := &fakeHandler{run: func(context.Context) error {
		runs++
		return githubapp.ValidationError{Cause: errors.New("no issue in the payload")}
	}}
	_ = s.Schedule(context.Background(), githubapp.Dispatch{Handler: h})
	s.Wait()
	if runs != 1 {
		t.Errorf("a bad payload ran %d times", runs)
	}
}

func TestSchedulerRefusesPastItsBound(t *testing.T) {
	s := NewScheduler(1)
	s.MaxPending = 2
	release := make(chan struct{})
	h := &fakeHandler{run: func(context.Context) error { <-release; return nil }}
	for i := 0; i < 2; i++ {
		if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h}); !errors.Is(err, githubapp.ErrCapacityExceeded) {
		t.Errorf("third delivery: %v, want ErrCapacityExceeded (503)", err)
	}
	close(release)
	s.Wait()
	if err := s.Schedule(context.Background(), githubapp.Dispatch{Handler: h}); err != nil {
		t.Errorf("after the queue drained: %v", err)
	}
	s.Wait()
}
