package clarify

import (
	"fmt"
	"strings"
	"time"
)

// The effects of the passage of time (Tick).
const (
	// EffectPing pings the awaited side once when a clarification goes stale: the target
	// while it waits for an answer, the asker while the answer waits for them (Reason says
	// which, SideTarget or SideAsker).
	EffectPing EffectKind = "ping"
	// EffectTimeout announces a fallback taken on timeout: the clarification was resolved with
	// the option its asker named as safe, and the decision logged as a timeout_assumed
	// assumption.
	EffectTimeout EffectKind = "timeout"
)

// The sides a stale clarification can wait on (Effect.Reason of an EffectPing, WaitingOn).
const (
	SideTarget      = "target"
	SideAsker       = "asker"
	SideMaintainers = "maintainers"
)

// staleNotePrefix starts the note recorded when a clarification goes stale; the side awaited
// follows it, so the ledger remembers who was pinged without a field of its own.
const staleNotePrefix = "stale: waiting on "

// Tick applies the passage of time at now: the SLA transitions (docs/operations.md, deadlines). A pending or
// answered clarification whose deadline has come goes stale (the awaited side is pinged once
// and given another SLA period); a stale one whose deadline comes again is resolved with its
// fallback, or escalated when it has none. Tick is pure and idempotent: ticking again at the
// same now changes nothing and returns no effects, and l is never modified.
func Tick(l Ledger, p Policy, now time.Time) Result {
	out := l.Clone()
	var effects []Effect
	changed := false
	for i := range out.Clarifications {
		c := &out.Clarifications[i]
		if c.StaleAfter.IsZero() || now.Before(c.StaleAfter) {
			continue
		}
		switch c.Status {
		case Pending, Answered:
			effects = append(effects, goStale(c, p, now))
			changed = true
		case Stale:
			if e, announce := timeOut(c, &out, now); announce {
				effects = append(effects, e)
			}
			changed = true
		}
	}
	if !changed {
		// The caller's ledger as it was (a copy would turn nil slices into empty ones), so
		// "nothing due" is visibly no change; like Apply's, it is only ever read.
		return Result{Ledger: l, Ignored: "nothing due"}
	}
	return Result{Ledger: out, Effects: effects}
}

// goStale is the first timeout: the clarification goes stale and the awaited side is pinged.
func goStale(c *Clarification, p Policy, now time.Time) Effect {
	side := SideTarget
	if c.Status == Answered {
		side = SideAsker
	}
	sla := p.SLA
	if sla <= 0 {
		// A zero SLA would make the next deadline now, and a second Tick at the same instant
		// would time the clarification out at once: fall back to the default instead.
		sla = DefaultSLA
	}
	c.Thread = append(c.Thread, Entry{Kind: KindNote, Round: c.Round, At: c.StaleAfter, Text: staleNotePrefix + side})
	c.Status = Stale
	c.UpdatedAt = now
	c.StaleAfter = now.Add(sla)
	// The side is part of the key: a clarification can go stale waiting on the target, be
	// answered and go stale again waiting on the asker within one round, and both get a ping.
	return Effect{Kind: EffectPing, Key: fmt.Sprintf("stale:%s:%d:%s", c.ID, c.Round, side),
		ClarificationID: c.ID, Round: c.Round, Reason: side, Mention: awaited(*c, side, p)}
}

// awaited lists whom the ping of a clarification waiting on side mentions: the asker, or the
// target's people without the asker.
func awaited(c Clarification, side string, p Policy) []string {
	if side == SideAsker {
		return mentionList([]string{c.Asker.Login}, nil)
	}
	return mentionList(p.people(c.Target), map[string]bool{strings.ToLower(c.Asker.Login): true})
}

// timeOut is the second timeout of a stale clarification: its fallback is taken if the target
// never answered and the asker named one; otherwise the maintainers are called, unless they
// were called in this round already (announce false).
func timeOut(c *Clarification, l *Ledger, now time.Time) (e Effect, announce bool) {
	side := staleSide(*c)
	if side == SideTarget && c.Fallback != "" && SettlesUnattended(*c) {
		decision := fallbackDecision(*c)
		settle(c, Resolved, decision, Entry{Kind: KindResolution, Round: c.Round, At: now, Text: timeoutPrefix + decision,
			Value: fallbackValue(*c)}, now)
		l.Assumptions = append(l.Assumptions, Assumption{Decision: decision, Author: c.Asker.Login, At: now,
			Clarification: c.ID, Source: SourceTimeoutAssumed})
		return Effect{Kind: EffectTimeout, Key: "timeout:" + c.ID, ClarificationID: c.ID}, true
	}
	if side == SideAsker {
		// The target did answer: taking the fallback would overrule that answer, so a silent
		// asker goes to the maintainers instead. Its own key, the one such escalations were
		// always announced under.
		announce = silentFirstInRound(*c)
		e, _ = escalateClarification(c, askerSilent, "", 0, now)
		e.Key += ":" + SideAsker
		return e, announce
	}
	if !SettlesUnattended(*c) {
		return escalateClarification(c, fmt.Sprintf("no agreement of %d people after two SLA periods", NeedsOf(*c)), "", 0, now)
	}
	return escalateClarification(c, "no answer after two SLA periods", "", 0, now)
}

// staleSide returns the side the latest stale note of c says it waits on; target when there
// is none (a ledger written before the notes were kept).
func staleSide(c Clarification) string {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		e := c.Thread[i]
		if e.Kind == KindNote && strings.HasPrefix(e.Text, staleNotePrefix) {
			if strings.HasPrefix(e.Text, staleNotePrefix+SideAsker) {
				return SideAsker
			}
			return SideTarget
		}
	}
	return SideTarget
}

// fallbackDecision renders the fallback option as "a) Use UTC"; the key alone if the option
// is somehow missing (fallbackOption).
func fallbackDecision(c Clarification) string {
	if o, ok := fallbackOption(c); ok {
		return o.Key + ") " + o.Text
	}
	return c.Fallback + ")"
}

// escalateClarification marks c escalated with reason and returns the announcement that
// calls the maintainers; announce is false when the escalation is no news in this round, or
// the round called them as often as it may, which is recorded in its thread but calls
// nobody again (once.go). The round's second call has a key of its own.
// Escalated clarifications have no deadline: they are with a human now.
func escalateClarification(c *Clarification, reason, author string, commentID int64, now time.Time) (e Effect, announce bool) {
	nth, _ := escalationCall(*c, author, reason)
	key := fmt.Sprintf("escalate:%s:%d", c.ID, c.Round)
	if nth > 1 {
		key += fmt.Sprintf(":%d", nth)
	}
	c.Status = Escalated
	c.UpdatedAt = now
	c.StaleAfter = time.Time{}
	c.Thread = append(c.Thread, Entry{Kind: KindEscalation, Round: c.Round, Author: author, CommentID: commentID, At: now, Text: reason})
	return Effect{Kind: EffectEscalate, Key: key, ClarificationID: c.ID, CommentID: commentID, Reason: reason}, nth > 0
}

// settle ends c for good: Resolved with decision, or Abandoned (decision empty), with the
// thread entry that says how. A settled clarification has no deadline, so Tick never looks at
// it again.
func settle(c *Clarification, status Status, decision string, e Entry, now time.Time) {
	c.Status = status
	c.Resolution = decision
	c.ResolvedAt = now
	c.UpdatedAt = now
	c.StaleAfter = time.Time{}
	c.Thread = append(c.Thread, e)
}

// WaitingOn returns the side a clarification waits on: SideTarget while pending (or stale
// after a question), SideAsker while answered (or stale after an answer), SideMaintainers
// when escalated, and "" once it is resolved or abandoned.
func WaitingOn(c Clarification) string {
	switch c.Status {
	case Pending:
		return SideTarget
	case Answered:
		return SideAsker
	case Stale:
		return staleSide(c)
	case Escalated:
		return SideMaintainers
	}
	return ""
}
