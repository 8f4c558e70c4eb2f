package clarify

import (
	"testing"
	"time"
)

func TestSummarizeCountsWhatAMaintainerAsks(t *testing.T) {
	p := DefaultPolicy()
	ask := func(q string) step { return step{agent, "/clarify @maria " + q, ""} }
	// One minute between steps: CLR-42-001 is answered 2 minutes after it was asked, and
	// CLR-42-002 3 minutes after; CLR-42-003 is escalated; CLR-42-004 waits.
	l, _ := play(p, ask("Per key or per IP?"), ask("Which window?"), step{maria, "/respond CLR-42-001 per key", ""},
		ask("Which header?"), step{maria, "/respond CLR-42-002 a minute", ""},
		step{agent, "/clarify escalate CLR-42-003 nobody knows", ""}, step{agent, "/clarify resolve CLR-42-001 per key", ""},
		ask("Which docs page?"), step{agent, "/assume docs later", ""})
	s := Summarize(l, NewLedger(43))
	if s.Clarifications != 4 || s.ByStatus[Resolved] != 1 || s.ByStatus[Answered] != 1 || s.ByStatus[Escalated] != 1 || s.ByStatus[Pending] != 1 {
		t.Errorf("counts %d %v", s.Clarifications, s.ByStatus)
	}
	if s.Answered != 2 || s.MeanAnswer != 150*time.Second || s.MedianAnswer != 3*time.Minute {
		t.Errorf("answered %d, mean %v, median %v; want 2, 2m30s, 3m (the upper of two)", s.Answered, s.MeanAnswer, s.MedianAnswer)
	}
	if s.Escalations != 1 || s.Assumptions != 1 || s.FallbacksTaken != 0 || s.AverageRounds() != 1 {
		t.Errorf("escalations %d, assumptions %d, fallbacks %d, rounds %.1f", s.Escalations, s.Assumptions, s.FallbacksTaken, s.AverageRounds())
	}
}
