package clarify

import (
	"testing"
	"time"
)

func TestNextDeadline(t *testing.T) {
	due := tickStart.Add(DefaultSLA)
	with := func(s Status, after time.Time) Clarification {
		c := tickClarification(s, "")
		c.StaleAfter = after
		return c
	}
	cases := map[string]struct {
		l    Ledger
		want time.Time
	}{
		"emptyLedgerHasNone":            {l: tickLedger(), want: time.Time{}},
		"pendingIsDueAtItsStaleAfter":   {l: tickLedger(with(Pending, due)), want: due},
		"answeredIsDueAtItsStaleAfter":  {l: tickLedger(with(Answered, due)), want: due},
		"staleIsDueAtItsTimeout":        {l: tickLedger(with(Stale, due.Add(DefaultSLA))), want: due.Add(DefaultSLA)},
		"escalatedWaitsOnAHumanNotTime": {l: tickLedger(with(Escalated, due)), want: time.Time{}},
		"settledOnesAreDone":            {l: tickLedger(with(Resolved, due), with(Abandoned, due)), want: time.Time{}},
		"openWithoutADeadlineIsSkipped": {l: tickLedger(with(Pending, time.Time{})), want: time.Time{}},
		"earliestOfSeveralOpenOnes": {
			l:    tickLedger(with(Stale, due.Add(time.Hour)), with(Pending, due), with(Answered, due.Add(time.Minute))),
			want: due,
		},
		"settledEarlierOneDoesNotCount": {
			l:    tickLedger(with(Resolved, due.Add(-time.Hour)), with(Escalated, due.Add(-time.Minute)), with(Pending, due)),
			want: due,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := NextDeadline(tc.l); !got.Equal(tc.want) {
				t.Errorf("NextDeadline = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNextDeadlineIsWhenTickFirstActs ties the two together: just before the deadline Tick
// does nothing, at it Tick acts.
func TestNextDeadlineIsWhenTickFirstActs(t *testing.T) {
	l := tickLedger(tickClarification(Pending, "a"))
	next := NextDeadline(l)
	if r := Tick(l, DefaultPolicy(), next.Add(-time.Nanosecond)); len(r.Effects) != 0 {
		t.Errorf("Tick acted before NextDeadline: %v", r.Effects)
	}
	if r := Tick(l, DefaultPolicy(), next); len(r.Effects) == 0 {
		t.Errorf("Tick did nothing at NextDeadline %v", next)
	}
}
