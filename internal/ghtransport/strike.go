package ghtransport

import "time"

// The strike rule: what a secondary-limit refusal does to its installation, in one place
// (both PaceStores count the strikes; what they lead to is decided here).
//
// Every secondary-limit refusal is a strike: the installation paces its writes at Struck
// bounds (halved by each strike, never below a quarter), so that a refusal GitHub sends
// despite the pacer is not met again at the same pace, and each StrikeQuiet without a
// strike forgets one (DecayStrikes), so the bounds come back. It holds the installation's
// requests for the wait GitHub named (Retry-After), exactly; where it named none, for
// StrikeHold (a minute, as GitHub asks, doubling with each strike in a row up to
// StrikeMaxHold). A primary limit spent (x-ratelimit-remaining 0) is no strike: it holds
// until its reset, which GitHub names.

// StrikeMaxHold bounds the hold that strikes in a row grow.
const StrikeMaxHold = 5 * time.Minute

// StrikeQuiet is how long an installation goes without a strike before it forgets one.
const StrikeQuiet = 10 * time.Minute

// strikeFloor is how far strikes may lower a bound: to a quarter of it, at least one write.
const strikeFloor = 4

// Strikes reports whether the refusal this answer was is a strike: a secondary limit.
func (l Limit) Strikes() bool { return l.Kind == LimitSecondary }

// StrikeWait is how long the installation holds for this strike, its strikes-th in a row:
// the wait GitHub named, else StrikeHold.
func (l Limit) StrikeWait(strikes int) time.Duration {
	if l.Named {
		return l.Wait
	}
	return StrikeHold(strikes)
}

// StrikeHold is how long the installation holds at its strikes-th strike in a row:
// SecondaryLimitWait, doubled by each strike before it, up to StrikeMaxHold.
func StrikeHold(strikes int) time.Duration {
	d := SecondaryLimitWait
	for range strikes - 1 {
		if d >= StrikeMaxHold {
			break
		}
		d *= 2
	}
	return min(d, StrikeMaxHold)
}

// DecayStrikes is what is left at now of strikes counted up to the last, struck: one is
// forgotten each StrikeQuiet since.
func DecayStrikes(strikes int, struck, now time.Time) int {
	if strikes <= 0 || !now.After(struck) {
		return max(strikes, 0)
	}
	return max(0, strikes-int(now.Sub(struck)/StrikeQuiet))
}

// Struck is the limits of an installation with strikes: each halves both bounds, down to
// a quarter of each (at least one write), so that a refusal GitHub sends despite the pacer
// slows the installation down instead of coming back.
func (l PaceLimits) Struck(strikes int) PaceLimits {
	l.PerMinute = struckBound(l.PerMinute, strikes)
	l.PerHour = struckBound(l.PerHour, strikes)
	return l
}

func struckBound(bound, strikes int) int {
	if bound <= 0 {
		return bound
	}
	floor := max(1, bound/strikeFloor)
	for range strikes {
		if bound/2 < floor {
			return floor
		}
		bound /= 2
	}
	return bound
}
