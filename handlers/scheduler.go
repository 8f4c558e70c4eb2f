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
	return &Scheduler{Timeout: DefaultHandlerTimeout, MaxPending: DefaultMaxPending, slots: make(chan struct{}, workers)}
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
		s.slots <- struct{}{}
		defer func() { <-s.slots }()
		ctx, cancel := context.WithTimeout(bg, s.Timeout)
		defer cancel()
		if err := s.execute(ctx, d); err != nil {
			if s.OnError != nil {
				s.OnError(ctx, d, err)
				return
			}
			zerolog.Ctx(ctx).Error().Err(err).Msg("Handling the delivery failed")
		}
	}()
	return nil
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
