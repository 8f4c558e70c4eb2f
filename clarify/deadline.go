package clarify

import "time"

// NextDeadline returns when time next moves the ledger: the earliest deadline of the
// clarifications Tick acts on (pending, answered or stale), or the zero time when none is
// open with a deadline. Escalated clarifications wait on a human and carry none; settled
// ones are done. The sweep keeps this time in its index, so it reads an issue only when
// Tick has something to do there.
func NextDeadline(l Ledger) time.Time {
	var next time.Time
	for _, c := range l.Clarifications {
		if at, ok := precedentDeadline(c); ok && (next.IsZero() || at.Before(next)) {
			next = at
		}
		switch c.Status {
		case Pending, Answered, Stale:
		default:
			continue
		}
		if c.StaleAfter.IsZero() {
			continue
		}
		if next.IsZero() || c.StaleAfter.Before(next) {
			next = c.StaleAfter
		}
	}
	return next
}
