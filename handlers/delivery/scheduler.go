package delivery

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// DefaultMaxPending bounds the deliveries accepted but not yet handled; past it a delivery
// gets 503 (go-githubapp's ErrCapacityExceeded) instead of piling up in memory.
const DefaultMaxPending = 1000

// DefaultHandlerTimeout bounds one delivery's work; it runs detached from the webhook
// request, which GitHub abandons after 10 seconds.
const DefaultHandlerTimeout = 2 * time.Minute

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

// The handlers whose deliveries of one issue must be noted the moment they are accepted.
var (
	_ Acceptor = (*handlers.IssueComment)(nil)
	_ Acceptor = (*handlers.Dispatch)(nil)
)

// Standby polling of a delivery that another run has in hand: soon at first, since a run
// takes a second or two, then calmly.
const (
	standbyFirstPoll = 100 * time.Millisecond
	standbyMaxPoll   = time.Second
)

// Outcomes of a delivery as the scheduler reports them to OnDelivery. Accepted ones end
// in DeliveryOK, DeliveryFailed (after every retry) or DeliveryBadPayload (the handler could
// not decode it); a duplicate that stood by and then ran ends in one of those too.
const (
	DeliveryAccepted   = "accepted"
	DeliveryDuplicate  = "duplicate"
	DeliveryBadPayload = "bad_payload"
	DeliveryBusy       = "busy"
	DeliveryOK         = "ok"
	DeliveryFailed     = "failed"
)

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
	// Seen, when set, runs each delivery once across replicas; nil runs every delivery
	// it is given (runs are idempotent, so a redelivery costs requests, not correctness).
	Seen handlers.DeliveriesSeen
	// OnDelivery, when set, is told each delivery's outcome (Delivery* constants) by event
	// type, for the app's metrics; handlers stays free of any metrics library.
	OnDelivery func(eventType, outcome string)
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
	return &Scheduler{Timeout: DefaultHandlerTimeout, MaxPending: DefaultMaxPending, Retries: handlers.DefaultRunRetries,
		RetryDelay: DefaultRetryDelay, sleep: ghtransport.Sleep, slots: make(chan struct{}, workers)}
}

// ErrShuttingDown is returned for deliveries that arrive after Drain began; GitHub records
// them as failed, and they can be redelivered.
var ErrShuttingDown = errors.New("scheduler: shutting down")

// Schedule validates the payload, then runs the handler in the background.
func (s *Scheduler) Schedule(ctx context.Context, d githubapp.Dispatch) error {
	if v, ok := d.Handler.(Validator); ok {
		if err := v.Validate(d.EventType, d.Payload); err != nil {
			s.report(d.EventType, DeliveryBadPayload)
			return githubapp.ValidationError{EventType: d.EventType, DeliveryID: d.DeliveryID, Cause: err}
		}
	}
	finish, standby, run := s.claim(ctx, d)
	if !run {
		s.report(d.EventType, DeliveryDuplicate)
		return nil
	}
	if err := s.admit(); err != nil {
		finish(false)
		s.report(d.EventType, DeliveryBusy)
		return err
	}
	if standby {
		s.report(d.EventType, DeliveryDuplicate)
	} else {
		s.report(d.EventType, DeliveryAccepted)
	}
	done := func() {}
	if a, ok := d.Handler.(Acceptor); ok {
		done = a.Accept(d.EventType, d.Payload)
	}

	// Detach: the request context ends when GitHub has its answer.
	go s.work(context.WithoutCancel(ctx), d, finish, standby, done)
	return nil
}

// admit takes a place for a delivery, unless the scheduler is shutting down or full.
func (s *Scheduler) admit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrShuttingDown
	}
	if s.MaxPending > 0 && s.pending >= s.MaxPending {
		return githubapp.ErrCapacityExceeded
	}
	s.pending++
	s.wg.Add(1)
	return nil
}

// work runs an admitted delivery in the background, after standing by while another run
// has it in hand, and reports how it ended.
func (s *Scheduler) work(bg context.Context, d githubapp.Dispatch, finish func(bool), standby bool, done func()) {
	defer s.wg.Done()
	defer done()
	defer func() {
		s.mu.Lock()
		s.pending--
		s.mu.Unlock()
	}()
	if standby {
		var taken bool
		if finish, taken = s.standBy(bg, d); !taken {
			return
		}
	}
	err := s.runWithRetries(bg, d)
	finish(err == nil)
	s.report(d.EventType, runOutcome(err))
	if err != nil {
		if s.OnError != nil {
			s.OnError(bg, d, err)
			return
		}
		zerolog.Ctx(bg).Error().Err(err).Msg("Handling the delivery failed")
	}
}

func (s *Scheduler) report(eventType, outcome string) {
	if s.OnDelivery != nil {
		s.OnDelivery(eventType, outcome)
	}
}

func runOutcome(err error) string {
	var ve githubapp.ValidationError
	switch {
	case err == nil:
		return DeliveryOK
	case errors.As(err, &ve):
		return DeliveryBadPayload
	}
	return DeliveryFailed
}

// claim asks Seen whether the delivery is to run here: run is false for one already
// handled (a redelivery, or the same delivery sent to two replicas), which GitHub is
// answered 200 for and which does not run again; standby is true for one that another
// run has in hand, to be run here only if that run fails or its replica dies.
func (s *Scheduler) claim(ctx context.Context, d githubapp.Dispatch) (finish func(ok bool), standby, run bool) {
	finish = func(bool) {}
	if s.Seen == nil || d.DeliveryID == "" {
		return finish, false, true
	}
	logger := zerolog.Ctx(ctx)
	state, f, err := s.Seen.Claim(ctx, d.DeliveryID)
	switch {
	case err != nil:
		// Claims save work, they do not make it correct: a run is idempotent.
		logger.Warn().Err(err).Msg("Could not claim the delivery; running it all the same")
		return finish, false, true
	case state == handlers.ClaimDone:
		logger.Info().Msg("Duplicate delivery: it already ran (a redelivery, or sent to another replica too); not run again")
		return finish, false, false
	case state == handlers.ClaimHeld:
		logger.Info().Msg("Duplicate delivery: another run has it in hand; standing by in case that run fails")
		return finish, true, true
	}
	return f, false, true
}

// standBy waits while another run has the delivery in hand. It ends when that run
// succeeds, or takes the delivery when that run failed or its replica died (its claim
// runs out), so that a replica's crash loses nothing GitHub sent twice. A shutdown's drain
// waits for it too: this may be the last replica that knows of the delivery. It runs the
// delivery anyway when the other run takes longer than any run can.
func (s *Scheduler) standBy(ctx context.Context, d githubapp.Dispatch) (finish func(ok bool), taken bool) {
	logger := zerolog.Ctx(ctx)
	sleep := s.sleep
	if sleep == nil {
		sleep = ghtransport.Sleep
	}
	poll, waited, longest := standbyFirstPoll, time.Duration(0), s.longestRun()
	for {
		if sleep(ctx, poll) != nil {
			return nil, false
		}
		waited += poll
		poll = min(2*poll, standbyMaxPoll)
		state, f, err := s.Seen.Claim(ctx, d.DeliveryID)
		switch {
		case err != nil:
			logger.Warn().Err(err).Msg("Could not claim a delivery held elsewhere; running it here")
			return func(bool) {}, true
		case state == handlers.ClaimDone:
			logger.Info().Dur("waited", waited).Msg("The other run of the delivery succeeded; not run here")
			return nil, false
		case state == handlers.ClaimTaken:
			logger.Warn().Dur("waited", waited).Msg("The other run of the delivery failed or vanished; running it here")
			return f, true
		}
		if waited > longest {
			logger.Warn().Dur("waited", waited).Msg("The other run of the delivery outlasted any run; running it here too")
			return func(bool) {}, true
		}
	}
}

// longestRun bounds a delivery's run with all its retries and the waits between them.
func (s *Scheduler) longestRun() time.Duration {
	total, delay := s.Timeout, s.RetryDelay
	for range s.Retries {
		total += delay + s.Timeout
		delay *= 4
	}
	return total + time.Minute
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
			sleep = ghtransport.Sleep
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
