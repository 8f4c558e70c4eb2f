package redisstate

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/handlers"
)

// Scripts that touch a lease only while it is still the caller's: a holder that stalled
// past its lease's expiry must not renew or free the lease another replica took since.
var (
	renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)
	releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)
)

// leaseState says how an attempt to take a lease went.
type leaseState int

const (
	leaseTaken leaseState = iota
	leaseHeld             // another holder has it
	leaseDown             // Redis did not answer: the caller works without the lease
)

// lease is a Redis key holding its holder's token, with an expiry that a goroutine renews
// while the holder works.
type lease struct {
	s     *Store
	key   string
	token string
	// keep returns the expiry to renew the lease to.
	keep func() time.Duration
	stop chan struct{}
	wg   sync.WaitGroup
}

// take tries once to take the lease at key for ttl.
func (s *Store) take(ctx context.Context, key string, ttl time.Duration) (*lease, leaseState, error) {
	l := &lease{s: s, key: key, token: token(), stop: make(chan struct{})}
	var ok bool
	answered, err := s.try(ctx, "take lease", func(ctx context.Context) error {
		var err error
		ok, err = s.rdb.SetNX(ctx, key, l.token, ttl).Result()
		return err
	})
	switch {
	case err != nil:
		return nil, leaseDown, err
	case !answered:
		return nil, leaseDown, nil
	case !ok:
		return nil, leaseHeld, nil
	}
	return l, leaseTaken, nil
}

// renewEvery starts renewing the lease every period, to keep() each time, until release.
// A lease found lost (its holder stalled past the expiry and another took it) is logged:
// two runs of one issue may then overlap, and the markers keep them to one post each.
func (l *lease) renewEvery(period time.Duration, keep func() time.Duration) {
	l.keep = keep
	l.wg.Go(func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-t.C:
			}
			ctx, cancel := context.WithTimeout(context.Background(), period)
			var n int64
			answered, _ := l.s.try(ctx, "renew lease", func(ctx context.Context) error {
				var err error
				n, err = renewScript.Run(ctx, l.s.rdb, []string{l.key}, l.token, l.keep().Milliseconds()).Int64()
				return err
			})
			cancel()
			if answered && n == 0 {
				l.s.log.Error().Str("lease", l.key).Msg("Lost a lease while holding it (this process stalled past its expiry): " +
					"another replica may run the same work at once; the markers keep each post to one")
				return
			}
		}
	})
}

// release stops the renewal and lets the lease go at once, or after rest when rest is
// positive. It runs on its own deadline: a run whose context ended must still free the
// issue for the others.
func (l *lease) release(rest time.Duration) {
	close(l.stop)
	l.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	_, _ = l.s.try(ctx, "release lease", func(ctx context.Context) error {
		if rest > 0 {
			return renewScript.Run(ctx, l.s.rdb, []string{l.key}, l.token, rest.Milliseconds()).Err()
		}
		return releaseScript.Run(ctx, l.s.rdb, []string{l.key}, l.token).Err()
	})
}

// IssueLeases is the per-issue lease shared by replicas: one issue's deliveries are
// applied one at a time across them, so that none posts what another is posting.
type IssueLeases struct{ s *Store }

var _ handlers.IssueLocker = (*IssueLeases)(nil)

// IssueLeases returns the store's per-issue leases.
func (s *Store) IssueLeases() *IssueLeases { return &IssueLeases{s: s} }

// Waits for a lease another replica holds: its holder usually frees it within a second,
// and Redis has no cheap way to say when, so the waiter polls, soon at first.
const (
	leasePollFirst = 5 * time.Millisecond
	leasePollMax   = 100 * time.Millisecond
)

// Lock takes the issue's lease, waiting while another replica holds it, and renews it
// until unlock. With Redis unreachable it returns at once: the caller's in-process lock
// is then the only one, as in a single process.
func (i *IssueLeases) Lock(ctx context.Context, key string) (func(), error) {
	k := i.s.key("lease", "issue", key)
	poll := leasePollFirst
	for {
		l, state, err := i.s.take(ctx, k, i.s.leaseTTL)
		if err != nil {
			return nil, err
		}
		switch state {
		case leaseDown:
			return func() {}, nil
		case leaseTaken:
			ttl := i.s.leaseTTL
			l.renewEvery(ttl/3, func() time.Duration { return ttl })
			return func() { l.release(0) }, nil
		}
		// Jitter, so that waiters on one issue do not poll in step.
		wait := poll/2 + rand.N(poll/2+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		poll = min(2*poll, leasePollMax)
	}
}

// SweepLease lets one replica at a time sweep, and spaces the sweeps of all replicas by
// the hold each asks for.
type SweepLease struct {
	s *Store
	// fallback serialises this process's sweeps while Redis is unreachable.
	fallback handlers.LocalSweepLease
}

var _ handlers.SweepLease = (*SweepLease)(nil)

// SweepLease returns the store's sweep lease.
func (s *Store) SweepLease() *SweepLease { return &SweepLease{s: s} }

// Acquire takes the sweep lease unless another replica holds it. It is renewed while the
// sweep runs; on release it stays until hold has passed since it was taken, so that the
// other replicas' tickers find it taken until the next interval.
func (sl *SweepLease) Acquire(ctx context.Context, hold time.Duration) (func(), bool, error) {
	start := sl.s.now()
	ttl := max(hold, sl.s.leaseTTL)
	l, state, err := sl.s.take(ctx, sl.s.key("lease", "sweep"), ttl)
	switch {
	case err != nil:
		return nil, false, err
	case state == leaseHeld:
		return nil, false, nil
	case state == leaseDown:
		return sl.fallback.Acquire(ctx, hold)
	}
	rest := func() time.Duration { return hold - sl.s.now().Sub(start) }
	l.renewEvery(sl.s.leaseTTL/3, func() time.Duration { return max(rest(), sl.s.leaseTTL) })
	return func() { l.release(rest()) }, true, nil
}
