package clarify

import (
	"fmt"
	"slices"
	"strings"
)

// Twice a round at most: the two sides of a clarification may go back and forth within one
// round as often as they like (the target escalates, then answers, then escalates again),
// and each call of the maintainers and each wake-up of the asker reaches people (an
// @mention, an agent's workflow started), so a loop must not multiply them. An escalation
// calls the maintainers when it is news: the first of its round, or one from the side that
// has not escalated in the round yet (the asker disputing an answer, after the target's
// own escalation), or one giving a reason not given in the round before. An answer wakes
// the asker when its author had not answered in the round yet (the maintainer's answer to
// an escalation, after the target's). Either happens at most maxPerRound times a round: a
// target looping escalate and reply calls and wakes at most twice, and an escalation past
// the limit is told so in the issue. A new round (a follow-up) calls and wakes again. One
// call more is kept: an asker who leaves the answer unused for two SLA periods is news the
// maintainers have not heard (askerSilent), once a round, and only time brings it about.

// maxPerRound is how often a round may call the maintainers, and wake the asker.
const maxPerRound = 2

// askerSilent is the reason of the escalation of an answer its asker left unused.
const askerSilent = "the asker did not act on the answer after two SLA periods"

// silentFirstInRound reports whether c's current round has no escalation for askerSilent
// yet: those are counted on their own, apart from the calls escalationCall counts.
func silentFirstInRound(c Clarification) bool {
	return !slices.ContainsFunc(c.Thread, func(e Entry) bool {
		return e.Kind == KindEscalation && e.Round == c.Round && e.Text == askerSilent
	})
}

// escalationCall reports whether an escalation of c by author (empty for the app itself)
// for reason, in c's current round, calls the maintainers: nth is the call it makes in the
// round (1 or 2), 0 for none; capped is true when it would be news but the round has called
// them maxPerRound times already. Which earlier escalations called is worked out again
// from the thread, so the ledger needs no record of it.
func escalationCall(c Clarification, author, reason string) (nth int, capped bool) {
	if reason == askerSilent {
		return 0, false
	}
	var earlier []Entry
	calls := 0
	for _, e := range c.Thread {
		if e.Kind != KindEscalation || e.Round != c.Round || e.Text == askerSilent {
			continue
		}
		if calls < maxPerRound && escalationIsNews(c, earlier, e.Author, e.Text) {
			calls++
		}
		earlier = append(earlier, e)
	}
	switch {
	case !escalationIsNews(c, earlier, author, reason):
		return 0, false
	case calls >= maxPerRound:
		return 0, true
	}
	return calls + 1, false
}

// escalationIsNews: no earlier escalation of the round came from author's side, or none gave
// reason.
func escalationIsNews(c Clarification, earlier []Entry, author, reason string) bool {
	side := escalationSide(c, author)
	sideSeen, reasonSeen := false, false
	for _, e := range earlier {
		sideSeen = sideSeen || escalationSide(c, e.Author) == side
		reasonSeen = reasonSeen || strings.EqualFold(strings.TrimSpace(e.Text), strings.TrimSpace(reason))
	}
	return !sideSeen || !reasonSeen
}

// escalationSide is the side an escalation's author speaks for: the asker, the app (time
// ran out, author empty), or the target's side (the target, or a maintainer).
func escalationSide(c Clarification, author string) string {
	switch {
	case author == "":
		return ""
	case strings.EqualFold(author, c.Asker.Login):
		return SideAsker
	}
	return SideTarget
}

// AnswerWakes reports whether after, as a save leaves it, holds an answer that wakes its
// asker: it is answered, and after's round holds an answer from someone who had not
// answered in it in before (the clarification as the run found it; existed false when it
// was not there yet), within maxPerRound such answers. The same person answering again in
// the round, after an escalation, wakes nobody: the asker was woken by their first answer.
func AnswerWakes(before Clarification, existed bool, after Clarification) bool {
	if after.Status != Answered {
		return false
	}
	if !existed {
		return true
	}
	probe := before
	probe.Round = after.Round
	if NeedsOf(after) > 1 {
		// Several people's answers wake the asker once: when enough of them agree.
		return !RoundAnswered(probe)
	}
	return wakingAnswers(after) > wakingAnswers(probe)
}

// WakeKey names the change of state a wake-up of c tells of: the same however often that
// change is told, so that a receiver that keeps the keys it acted on drops a repeat, and
// another for each new change. It is the clarification, its round, and the answer that
// woke the asker (the first or the second person's of the round) or how it settled.
func WakeKey(c Clarification) string {
	if c.Status == Answered {
		return fmt.Sprintf("%s/%d/answered/%d", c.ID, c.Round, wakingAnswers(c))
	}
	return fmt.Sprintf("%s/%d/%s", c.ID, c.Round, Outcome(c))
}

// wakingAnswers counts the answers of c's round that woke its asker: each from an author
// who had not answered in the round before, at most maxPerRound.
func wakingAnswers(c Clarification) int {
	seen := map[string]bool{}
	for _, e := range c.Thread {
		if e.Kind == KindAnswer && e.Round == c.Round && len(seen) < maxPerRound {
			seen[strings.ToLower(e.Author)] = true
		}
	}
	return len(seen)
}
