package clarify

import (
	"slices"
	"time"
)

// Summary is what a maintainer asks of an issue's or a repository's clarifications: how
// many in each state, how long answers took, how often it came to the maintainers.
type Summary struct {
	// Clarifications counts them; ByStatus splits them by current status.
	Clarifications int
	ByStatus       map[Status]int
	// Rounds counts the question rounds of all of them.
	Rounds int
	// Answered counts those whose first question was answered; MedianAnswer and
	// MeanAnswer are the times from a first question to its first answer.
	Answered                    int
	MedianAnswer, MeanAnswer    time.Duration
	Escalations, FallbacksTaken int
	Assumptions                 int
	// Precedents counts how earlier decisions offered to these clarifications fared.
	Precedents PrecedentCounts
}

// AverageRounds is the mean number of question rounds per clarification.
func (s Summary) AverageRounds() float64 {
	if s.Clarifications == 0 {
		return 0
	}
	return float64(s.Rounds) / float64(s.Clarifications)
}

// Summarize sums up the clarifications of ledgers (one issue's, or a repository's).
func Summarize(ledgers ...Ledger) Summary {
	s := Summary{ByStatus: map[Status]int{}}
	var waits []time.Duration
	for _, l := range ledgers {
		for _, c := range l.Clarifications {
			s.Clarifications++
			s.ByStatus[c.Status]++
			s.Rounds += c.Round
			s.Precedents.add(c)
			if wait, ok := firstAnswerWait(c); ok {
				waits = append(waits, wait)
			}
			if slices.ContainsFunc(c.Thread, func(e Entry) bool { return e.Kind == KindEscalation }) || c.Status == Escalated {
				s.Escalations++
			}
		}
		for _, a := range l.Assumptions {
			s.Assumptions++
			if a.Source == SourceTimeoutAssumed {
				s.FallbacksTaken++
			}
		}
	}
	s.Answered = len(waits)
	if len(waits) > 0 {
		slices.Sort(waits)
		s.MedianAnswer = waits[len(waits)/2]
		var sum time.Duration
		for _, w := range waits {
			sum += w
		}
		s.MeanAnswer = sum / time.Duration(len(waits))
	}
	return s
}

// firstAnswerWait is the time from c's first question to its first answer.
func firstAnswerWait(c Clarification) (time.Duration, bool) {
	var asked time.Time
	for _, e := range c.Thread {
		switch {
		case e.Kind == KindQuestion && asked.IsZero():
			asked = e.At
		case e.Kind == KindAnswer && !asked.IsZero():
			return e.At.Sub(asked), true
		}
	}
	return 0, false
}
