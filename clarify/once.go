package clarify

import "slices"

// Once a round: the two sides of a clarification may go back and forth within one round as
// often as they like (the target escalates, then answers, then escalates again), but the
// maintainers are called by the first escalation of a round only, and the asker is woken
// by the first answer of a round only. Each call and each wake-up reaches people (an
// @mention, an agent's workflow started), so a loop must not multiply them; a new round (a
// follow-up) calls and wakes again. One call more is kept: an asker who leaves the answer
// unused for two SLA periods is news the maintainers have not heard (askerSilent), once a
// round too, and only time brings it about, never a comment.

// askerSilent is the reason of the escalation of an answer its asker left unused.
const askerSilent = "the asker did not act on the answer after two SLA periods"

// firstInRound reports whether c's thread has no entry of kind in c's current round. An
// escalation for askerSilent is counted on its own: with silent, only those count, and
// without, all other escalations (silent is false for any other kind).
func firstInRound(c Clarification, kind EntryKind, silent bool) bool {
	return !slices.ContainsFunc(c.Thread, func(e Entry) bool {
		return e.Kind == kind && e.Round == c.Round && (kind != KindEscalation || (e.Text == askerSilent) == silent)
	})
}

// AnswerWakes reports whether after, as a save leaves it, holds an answer that wakes its
// asker: it is answered, and before (the clarification as the run found it; existed false
// when it was not there yet) had no answer in after's round. An answer given again in the
// same round, after an escalation, wakes nobody: the asker was woken by the first.
func AnswerWakes(before Clarification, existed bool, after Clarification) bool {
	if after.Status != Answered {
		return false
	}
	if !existed {
		return true
	}
	probe := before
	probe.Round = after.Round
	return firstInRound(probe, KindAnswer, false)
}
