package redisstate

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/handlers"
)

// Values of a delivery's key: "done" once a run succeeded, "run:<token>" while one
// holds it.
const seenDone = "done"

// claimScript takes a delivery unless a run holds it or one succeeded. KEYS[1] is the
// delivery's key; ARGV: the claim's value, its expiry (ms). It returns 0 taken, 1 done,
// 2 held.
var claimScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 0
end
if v == 'done' then return 1 end
return 2`)

// Deliveries remembers the deliveries run, by GUID, across replicas. A claim expires
// after the lease TTL unless renewed, so the crash of the replica running a delivery
// frees it for the replica GitHub (or a test) also sent it to; a success is kept for
// days, for redeliveries.
type Deliveries struct{ s *Store }

var _ handlers.DeliveriesSeen = (*Deliveries)(nil)

// Deliveries returns the store's record of deliveries run.
func (s *Store) Deliveries() *Deliveries { return &Deliveries{s: s} }

// Claim takes the delivery for this process, as handlers.DeliveriesSeen says. With Redis
// unreachable every delivery is new: running one twice costs requests, losing one costs
// an answer.
func (d *Deliveries) Claim(ctx context.Context, id string) (handlers.ClaimState, func(ok bool), error) {
	key := d.s.key("delivery", id)
	tok := "run:" + token()
	ttl := d.s.leaseTTL
	var state int64
	answered, err := d.s.try(ctx, "claim delivery", func(ctx context.Context) error {
		var err error
		state, err = claimScript.Run(ctx, d.s.rdb, []string{key}, tok, ttl.Milliseconds()).Int64()
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	if !answered {
		return handlers.ClaimTaken, func(bool) {}, nil
	}
	switch state {
	case 1:
		return handlers.ClaimDone, nil, nil
	case 2:
		return handlers.ClaimHeld, nil, nil
	}
	l := &lease{s: d.s, key: key, token: tok, stop: make(chan struct{})}
	l.renewEvery(ttl/3, func() time.Duration { return ttl })
	return handlers.ClaimTaken, func(ok bool) {
		if !ok {
			// Forgotten, so that a redelivery (or a twin on standby) runs it again.
			l.release(0)
			return
		}
		close(l.stop)
		l.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
		defer cancel()
		// Done whoever holds the claim now: the run succeeded.
		_, _ = d.s.try(ctx, "delivery done", func(ctx context.Context) error {
			return d.s.rdb.Set(ctx, key, seenDone, d.s.seenTTL).Err()
		})
	}, nil
}
