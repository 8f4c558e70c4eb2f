package redisstate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/internal/ghtransport"
)

// paceScript is ghtransport.MemoryPaceStore over Redis, in one script so that two replicas
// never both take an installation's last place. KEYS[1] is a sorted set of the writes'
// places (members, the place numbers) by when they may go (scores, µs); KEYS[2] a hash of
// the hold, the place counter, the strikes and when the last was struck; KEYS[3] a hash of
// when each place's answer came.
//
// Every time in Redis is on one clock, the reference (ARGV[3], or Redis's own, TIME), so
// that replicas whose clocks disagree still share one window: each call turns the caller's
// times into the reference's by the difference between the caller's now (ARGV[2]) and the
// reference's at the call. The difference read this way runs late by the way to Redis, so
// answers and holds come out a little later than they are, never earlier; the time the
// script returns is turned back by the caller (PaceStore.fromReference).
//
// ARGV[1] is the operation:
//   - reserve: ARGV[4] write (1 or 0), [5] the per-minute and [6] per-hour bounds at 0, 1,
//     2 … strikes (comma-separated), [7] MinuteWindow, [8] HourWindow, [9] spacing,
//     [10] PaceLapse, [11] StrikeQuiet (µs). Returns {at, place, reference now}.
//   - done: ARGV[4] the place. - hold: ARGV[4] until. - refused: ARGV[4] when the request
//     was let go, [5] StrikeQuiet; returns the strikes left and this one.
//
// The strike rule is ghtransport's (strike.go): the script only counts strikes and
// forgets them as ghtransport.DecayStrikes does, and takes the bounds at each count and
// the hold a count leads to from it.
var paceScript = redis.NewScript(`
local sent, meta, ans = KEYS[1], KEYS[2], KEYS[3]
local ref
if ARGV[3] ~= '' then ref = tonumber(ARGV[3]) else
  local t = redis.call('TIME'); ref = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local off = ref - tonumber(ARGV[2])
local now = ref
local function num(key, field) return tonumber(redis.call('HGET', key, field) or '0') end
local function fmt(us) return string.format('%.0f', us) end
-- Expiries only grow, so that idle installations vanish but no window is cut short.
local function extend(key, us)
  local ms = math.ceil(us / 1000) + 1000
  if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
end
-- ghtransport.DecayStrikes: one strike forgotten each quiet since the last was struck.
local function strikes(quiet)
  local n, struck = num(meta, 'strikes'), num(meta, 'struck')
  if n > 0 and now > struck then n = math.max(0, n - math.floor((now - struck) / quiet)) end
  return n
end
local op = ARGV[1]
if op == 'hold' then
  local untilT = tonumber(ARGV[4]) + off
  if untilT > num(meta, 'hold') then
    redis.call('HSET', meta, 'hold', fmt(untilT)); extend(meta, untilT - now)
  end
  return 0
elseif op == 'done' then
  local start = redis.call('ZSCORE', sent, ARGV[4])
  if start then redis.call('HSETNX', ans, ARGV[4], fmt(math.max(now, tonumber(start)))) end
  return 0
elseif op == 'refused' then
  local quiet = tonumber(ARGV[5])
  local n = strikes(quiet)
  if n == 0 or tonumber(ARGV[4]) + off >= num(meta, 'struck') then
    n = n + 1
    redis.call('HSET', meta, 'strikes', n, 'struck', fmt(math.max(num(meta, 'struck'), now)))
    extend(meta, n * quiet)
  end
  return n
end
local write = ARGV[4] == '1'
local minuteW, hourW, spacing = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local lapse, quiet = tonumber(ARGV[10]), tonumber(ARGV[11])
-- A read waits for the hold alone: the window is a write's.
if not write then return {fmt(math.max(now, num(meta, 'hold'))), 0, fmt(ref)} end
-- The writes still holding a place: one on its way past the lapse is taken as answered
-- then. The answers are read in one command, whatever the window holds.
local answers = {}
local kv = redis.call('HGETALL', ans)
for i = 1, #kv, 2 do answers[kv[i]] = tonumber(kv[i + 1]) end
local writes = {}
local all = redis.call('ZRANGE', sent, 0, -1, 'WITHSCORES')
for i = 1, #all, 2 do
  local place, start = all[i], tonumber(all[i + 1])
  local answered = answers[place] or 0
  if answered == 0 and start + lapse <= now then
    answered = start + lapse; redis.call('HSET', ans, place, fmt(answered))
  end
  if answered > 0 and answered + hourW <= now then
    redis.call('ZREM', sent, place); redis.call('HDEL', ans, place)
  else
    writes[#writes + 1] = {start = start, answered = answered}
  end
end
local n = strikes(quiet)
local at = math.max(now, num(meta, 'hold'))
local function bound(list, k)
  local vals = {}
  for v in string.gmatch(list, '[^,]+') do vals[#vals + 1] = tonumber(v) end
  return vals[math.min(k, #vals - 1) + 1]
end
local perMinute, perHour = bound(ARGV[5], n), bound(ARGV[6], n)
if #writes > 0 then
  local last = writes[#writes].start
  at = math.max(at, last)
  if spacing > 0 then at = math.max(at, last + spacing) end
end
-- The first time from at when fewer than limit writes may still hold a place, a write on
-- its way taken as answered now.
local function fit(limit, window)
  if limit <= 0 or #writes < limit then return end
  local ends = {}
  for _, x in ipairs(writes) do
    if x.answered == 0 then ends[#ends + 1] = math.max(now, x.start) + window
    else ends[#ends + 1] = x.answered + window end
  end
  table.sort(ends, function(a, b) return a > b end)
  at = math.max(at, ends[limit])
end
-- Whether fewer than limit writes hold a place at at, however late those on their way end.
local function sure(limit, window)
  if limit <= 0 then return true end
  local held = 0
  for _, x in ipairs(writes) do
    if x.answered == 0 or x.answered + window > at then held = held + 1 end
  end
  return held < limit
end
fit(perMinute, minuteW)
fit(perHour, hourW)
if not (sure(perMinute, minuteW) and sure(perHour, hourW)) then return {fmt(at), 0, fmt(ref)} end
local place = redis.call('HINCRBY', meta, 'seq', 1)
redis.call('ZADD', sent, at, place)
local keep = at - now + lapse + hourW
extend(sent, keep); extend(ans, keep); extend(meta, math.max(keep, num(meta, 'hold') - now))
return {fmt(at), place, fmt(ref)}`)

// PaceStore is the write pacer's sliding windows, shared by replicas: GitHub counts an
// installation's writes whichever replica sends them.
type PaceStore struct {
	s *Store
	// clock is the reference the windows are kept on (Options.PaceClock); nil is Redis's.
	clock func() time.Time
	// fallback paces this process alone while Redis is unreachable: the replicas together
	// may then send more than the limit, and GitHub's Retry-After holds them back. Its
	// places are handed out negated, so that Done finds the store that gave them.
	fallback ghtransport.MemoryPaceStore
}

var _ ghtransport.PaceStore = (*PaceStore)(nil)

// PaceStore returns the store's pacer windows.
func (s *Store) PaceStore() *PaceStore { return &PaceStore{s: s, clock: s.paceClock} }

func (p *PaceStore) keys(inst int64) []string {
	// The braces keep an installation's keys in one slot, should the Redis be a cluster.
	tag := "{" + strconv.FormatInt(inst, 10) + "}"
	return []string{p.s.key("pace", tag, "sent"), p.s.key("pace", tag, "meta"), p.s.key("pace", tag, "answered")}
}

func micros(t time.Time) int64 { return t.UnixMicro() }

// run runs one operation of paceScript with the caller's now, and reports how long the
// call took on the real clock, and whether Redis answered.
func (p *PaceStore) run(ctx context.Context, inst int64, now time.Time, op string, args ...any) (any, time.Duration, bool, error) {
	ref := ""
	if p.clock != nil {
		ref = strconv.FormatInt(micros(p.clock()), 10)
	}
	var res any
	began := time.Now()
	answered, err := p.s.try(ctx, "pace "+op, func(ctx context.Context) error {
		var err error
		res, err = paceScript.Run(ctx, p.s.rdb, p.keys(inst), append([]any{op, micros(now), ref}, args...)...).Result()
		return err
	})
	return res, time.Since(began), answered, err
}

// fromReference turns a time the script returned into the caller's clock, by the
// difference at the call: read once the reference's now was read, it runs early by the
// way back from Redis, so the call's time is added (on Redis's clock; a given reference
// clock does not move during the call).
func (p *PaceStore) fromReference(at, ref int64, now time.Time, took time.Duration) time.Time {
	t := now.Add(time.Duration(at-ref) * time.Microsecond)
	if p.clock == nil {
		t = t.Add(took)
	}
	return t
}

// bounds lists a bound at 0, 1, 2 … strikes, until it no longer changes.
func bounds(lim ghtransport.PaceLimits, perMinute bool) string {
	var b []string
	for k := 0; ; k++ {
		l := lim.Struck(k)
		v := l.PerHour
		if perMinute {
			v = l.PerMinute
		}
		b = append(b, strconv.Itoa(v))
		if k > 0 && b[k] == b[k-1] {
			return strings.Join(b, ",")
		}
	}
}

// Reserve decides when the installation may send, as ghtransport.PaceStore says.
func (p *PaceStore) Reserve(ctx context.Context, inst int64, now time.Time, write bool, lim ghtransport.PaceLimits) (ghtransport.Slot, error) {
	w := "0"
	if write {
		w = "1"
	}
	res, took, answered, err := p.run(ctx, inst, now, "reserve", w, bounds(lim, true), bounds(lim, false),
		lim.MinuteWindow().Microseconds(), lim.HourWindow().Microseconds(), lim.Spacing.Microseconds(),
		ghtransport.PaceLapse.Microseconds(), ghtransport.StrikeQuiet.Microseconds())
	if err != nil {
		return ghtransport.Slot{}, err
	}
	if !answered {
		slot, err := p.fallback.Reserve(ctx, inst, now, write, lim)
		slot.Place = -slot.Place
		return slot, err
	}
	vals, _ := res.([]any)
	if len(vals) != 3 {
		return ghtransport.Slot{}, fmt.Errorf("redis pace script answered %v", res)
	}
	atS, _ := vals[0].(string)
	refS, _ := vals[2].(string)
	at, err1 := strconv.ParseInt(atS, 10, 64)
	ref, err2 := strconv.ParseInt(refS, 10, 64)
	place, ok := vals[1].(int64)
	if err1 != nil || err2 != nil || !ok {
		return ghtransport.Slot{}, fmt.Errorf("redis pace script answered %v", res)
	}
	return ghtransport.Slot{At: p.fromReference(at, ref, now, took), Place: place}, nil
}

// Done notes when the write of place came back, on every replica.
func (p *PaceStore) Done(ctx context.Context, inst int64, place int64, now time.Time) error {
	if place < 0 {
		return p.fallback.Done(ctx, inst, -place, now)
	}
	_, _, _, err := p.run(ctx, inst, now, "done", place)
	return err
}

// Hold holds the installation's requests until the given time, on every replica.
func (p *PaceStore) Hold(ctx context.Context, inst int64, now, until time.Time) error {
	// Held in memory too, so that this replica holds even if Redis fails before its next
	// request.
	_ = p.fallback.Hold(ctx, inst, now, until)
	_, _, _, err := p.run(ctx, inst, now, "hold", micros(until))
	return err
}

// Refused records a strike, on every replica: the strike in Redis, and the hold it leads
// to.
func (p *PaceStore) Refused(ctx context.Context, inst int64, sent, now time.Time, l ghtransport.Limit) error {
	_ = p.fallback.Refused(ctx, inst, sent, now, l)
	res, _, answered, err := p.run(ctx, inst, now, "refused", micros(sent), ghtransport.StrikeQuiet.Microseconds())
	if err != nil || !answered {
		return err
	}
	strikes, _ := res.(int64)
	return p.Hold(ctx, inst, now, now.Add(l.StrikeWait(int(strikes))))
}
