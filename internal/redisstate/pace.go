package redisstate

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/internal/ghtransport"
)

// reserveScript is ghtransport.MemoryPaceStore.Reserve over Redis, in one script so that two
// replicas never both take an installation's last place. KEYS[1] is a sorted set of the
// times writes were let through (µs since the epoch, as scores; members made unique by a
// counter), KEYS[2] a hash of the hold (µs) and that counter. ARGV: now, write (1 or 0),
// per minute, per hour, minute (µs), margin (µs), spacing (µs). Times are the caller's
// clock, as in memory; the margin covers the replicas' clocks differing a little.
var reserveScript = redis.NewScript(`
local sent, meta = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local perMinute, perHour = tonumber(ARGV[3]), tonumber(ARGV[4])
local minute, margin, spacing = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local hour = 60 * minute + margin
-- Expiries only grow, so that idle installations vanish but no window is cut short.
local function extend(key, us)
  local ms = math.ceil(us / 1000) + 1000
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
redis.call('ZREMRANGEBYSCORE', sent, '-inf', now - hour)
local at = now
local hold = tonumber(redis.call('HGET', meta, 'hold') or '0')
if hold > at then at = hold end
if ARGV[2] == '1' then
  local n = redis.call('ZCARD', sent)
  if n > 0 then
    local last = tonumber(redis.call('ZRANGE', sent, -1, -1, 'WITHSCORES')[2])
    if last > at then at = last end
    if spacing > 0 and last + spacing > at then at = last + spacing end
  end
  local function later(limit, window)
    if limit > 0 and n >= limit then
      local free = tonumber(redis.call('ZRANGE', sent, n - limit, n - limit, 'WITHSCORES')[2]) + window
      if free > at then at = free end
    end
  end
  later(perMinute, minute + margin)
  later(perHour, hour)
  local seq = redis.call('HINCRBY', meta, 'seq', 1)
  redis.call('ZADD', sent, at, string.format('%.0f/%d', at, seq))
  extend(sent, at - now + hour)
  extend(meta, math.max(at, hold) - now + hour)
end
return at`)

// holdScript raises an installation's hold. KEYS[2] as above; ARGV: now, until (µs).
var holdScript = redis.NewScript(`
local meta = KEYS[2]
local now, untilT = tonumber(ARGV[1]), tonumber(ARGV[2])
local hold = tonumber(redis.call('HGET', meta, 'hold') or '0')
if untilT > hold then
  redis.call('HSET', meta, 'hold', string.format('%.0f', untilT))
  local ms = math.ceil((untilT - now) / 1000) + 1000
  if redis.call('PTTL', meta) < ms then redis.call('PEXPIRE', meta, ms) end
end
return 0`)

// PaceStore is the write pacer's sliding windows, shared by replicas: GitHub counts an
// installation's writes whichever replica sends them.
type PaceStore struct {
	s *Store
	// fallback paces this process alone while Redis is unreachable: the replicas together
	// may then send more than the limit, and GitHub's Retry-After holds them back.
	fallback ghtransport.MemoryPaceStore
}

var _ ghtransport.PaceStore = (*PaceStore)(nil)

// PaceStore returns the store's pacer windows.
func (s *Store) PaceStore() *PaceStore { return &PaceStore{s: s} }

func (p *PaceStore) keys(inst int64) []string {
	// The braces keep an installation's two keys in one slot, should the Redis be a cluster.
	tag := "{" + strconv.FormatInt(inst, 10) + "}"
	return []string{p.s.key("pace", tag, "sent"), p.s.key("pace", tag, "meta")}
}

func micros(t time.Time) int64 { return t.UnixMicro() }

// Reserve decides when the installation may send, as ghtransport.PaceStore says.
func (p *PaceStore) Reserve(ctx context.Context, inst int64, now time.Time, write bool, lim ghtransport.PaceLimits) (time.Time, error) {
	w := "0"
	if write {
		w = "1"
	}
	var at int64
	answered, err := p.s.try(ctx, "pace", func(ctx context.Context) error {
		var err error
		at, err = reserveScript.Run(ctx, p.s.rdb, p.keys(inst), micros(now), w, lim.PerMinute, lim.PerHour,
			lim.Minute.Microseconds(), lim.Margin().Microseconds(), lim.Spacing.Microseconds()).Int64()
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	if !answered {
		return p.fallback.Reserve(ctx, inst, now, write, lim)
	}
	return time.UnixMicro(at), nil
}

// Hold holds the installation's requests until the given time, on every replica.
func (p *PaceStore) Hold(ctx context.Context, inst int64, now, until time.Time) error {
	// Held in memory too, so that this replica holds even if Redis fails before its next
	// request.
	_ = p.fallback.Hold(ctx, inst, now, until)
	_, err := p.s.try(ctx, "pace hold", func(ctx context.Context) error {
		return holdScript.Run(ctx, p.s.rdb, p.keys(inst), micros(now), micros(until)).Err()
	})
	return err
}
