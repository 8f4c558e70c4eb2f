package handlers

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"
)

// DefaultMaxPending bounds the deliveries accepted but not yet handled; past it a delivery
// gets 503 (go-githubapp's ErrCapacityExceeded) instead of piling up in memory.
const DefaultMaxPending = 1000

// DefaultHandlerTimeout bounds one delivery's work; it runs detached from the webhook
// request, which GitHub abandons after 10 seconds.
const DefaultHandlerTimeout = 2 * time.Minute

// DefaultRunRetries is how many times a delivery whose run failed is run again. A run is
// idempotent (every post carries its marker, labels and the status comment are set to
// the ledger), and GitHub never redelivers a delivery the app already answered with 202,
// so a run that fails on a passing fault (a 502, a timeout) must be tried again here or
// it is lost until the next event in the issue.
const DefaultRunRetries = 3

// DefaultRetryDelay is the wait before the first retry of a failed run; it quadruples
// with each further one.
const DefaultRetryDelay = 2 * time.Second

// Validator is a handler that can check a payload before the delivery is accepted.
type Validator interface {
	Validate(eventType string, payload []byte) error
}

// Acceptor is a handler that takes note of a delivery the moment it is accepted, before
// any worker runs it, and is told when its run has ended: deliveries of one issue may be
// run in another order than GitHub sent them.
type Acceptor interface {
	Accept(eventType string, payload []byte) (done func())
}

// Scheduler runs handlers in the background so GitHub gets its answer at once, after
// checking the payload in the foreground so a malformed one still gets 400. Unlike
// go-githubapp's async schedulers it can be drained, so a shutdown loses no accepted
// delivery.
type Scheduler struct {
	// Timeout bounds each handler run.
	Timeout time.Duration
	// OnError receives a handler's error; nil logs it.
	OnError func(ctx context.Context, d githubapp.Dispatch, err error)
	// MaxPending bounds the deliveries accepted and not yet handled.
	MaxPending int
	// Retries is how many times a failed run is tried again, RetryDelay the first wait.
	Retries    int
	RetryDelay time.Duration
	// sleep waits for d or until ctx ends; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error

	slots   chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	closed  bool
	pending int
}

var _ githubapp.Scheduler = (*Scheduler)(nil)

// NewScheduler returns a scheduler that runs at most workers handlers at once.
func NewScheduler(workers int) *Scheduler {
	if workers < 1 {
		workers = 1
	}
	return &Scheduler{Timeout: DefaultHandlerTimeout, MaxPending: DefaultMaxPending, Retries: DefaultRunRetries,
		RetryDelay: DefaultRetryDelay, sleep: sleepCtx, slots: make(chan struct{}, workers)}
}

// ErrShuttingDown is returned for deliveries that arrive after Drain began; GitHub records
// them as failed, and they can be redelivered.
var ErrShuttingDown = errors.New("scheduler: shutting down")

// Schedule validates the payload, then runs the handler in the background.
func (s *Scheduler) Schedule(ctx context.Context, d githubapp.Dispatch) error {
	if v, ok := d.Handler.(Validator); ok {
		if err := v.Validate(d.EventType, d.Payload); err != nil {
			return githubapp.ValidationError{EventType: d.EventType, DeliveryID: d.DeliveryID, Cause: err}
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrShuttingDown
	}
	if s.MaxPending > 0 && s.pending >= s.MaxPending {
		s.mu.Unlock()
		return githubapp.ErrCapacityExceeded
	}
	s.pending++
	s.wg.Add(1)
	s.mu.Unlock()
	done := func() {}
	if a, ok := d.Handler.(Acceptor); ok {
		done = a.Accept(d.EventType, d.Payload)
	}

	// Detach: the request context ends when GitHub has its answer.
	bg := context.WithoutCancel(ctx)
	go func() {
		defer s.wg.Done()
		defer done()
		defer func() {
			s.mu.Lock()
			s.pending--
			s.mu.Unlock()
		}()
		if err := s.runWithRetries(bg, d); err != nil {
			if s.OnError != nil {
				s.OnError(bg, d, err)
				return
			}
			zerolog.Ctx(bg).Error().Err(err).Msg("Handling the delivery failed")
		}
	}()
	return nil
}

// runWithRetries runs the handler, each try in a worker slot and under its own timeout,
// and tries a failed run again after a growing wait (out of the slot, so other
// deliveries go on meanwhile). It returns the last error.
func (s *Scheduler) runWithRetries(ctx context.Context, d githubapp.Dispatch) error {
	delay := s.RetryDelay
	for try := 0; ; try++ {
		err := s.try(ctx, d)
		var ve githubapp.ValidationError
		if err == nil || errors.As(err, &ve) || try >= s.Retries {
			return err
		}
		zerolog.Ctx(ctx).Warn().Err(err).Int("try", try+1).Dur("retry_in", delay).Msg("Handling the delivery failed; trying again")
		sleep := s.sleep
		if sleep == nil {
			sleep = sleepCtx
		}
		if serr := sleep(ctx, delay); serr != nil {
			return err
		}
		delay *= 4
	}
}

func (s *Scheduler) try(ctx context.Context, d githubapp.Dispatch) error {
	s.slots <- struct{}{}
	defer func() { <-s.slots }()
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	return s.execute(ctx, d)
}

func (s *Scheduler) execute(ctx context.Context, d githubapp.Dispatch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("handler panic: %v\n%s", r, debug.Stack())
		}
	}()
	return d.Execute(ctx)
}

// Wait blocks until every accepted delivery has been handled.
func (s *Scheduler) Wait() { s.wg.Wait() }

// Drain stops accepting deliveries and waits for the accepted ones, or for ctx.
func (s *Scheduler) Drain(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
