package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
)

// input is one event to fold in, with the user behind it.
type input struct {
	event clarify.Event
	user  *github.User
}

// events lists what to fold in, oldest first: every comment newer than the ledger's cursor
// (so a lost or reordered delivery heals itself), with the trigger in its place; without a
// ledger, the comments of the last firstRunWindow before the trigger and after it.
func (b *Base) events(snap *snapshot, trig trigger) []input {
	var trigComment *github.IssueComment
	if trig.Kind == triggerComment {
		trigComment = trig.Comment
	}
	newer := func(c *github.IssueComment) bool {
		switch {
		case snap.damaged:
			return !c.GetCreatedAt().Time.Before(snap.rebuildFrom)
		case snap.hasLedger:
			return !snap.applied(c.GetID())
		}
		return !c.GetCreatedAt().Time.Before(trig.At.Add(-firstRunWindow))
	}
	fromTrigger := func() input {
		// The payload tells whether the issue was closed when the trigger was written (a
		// close or reopen of an issue with nothing open costs no request, so the ledger
		// alone may lag); for older comments folded in with it, the state is not known.
		in := commentInput(trigComment)
		in.event.IssueClosed = trig.IssueClosed
		return in
	}
	var out []input
	placed := trigComment == nil
	for _, c := range snap.comments {
		if !newer(c) {
			continue
		}
		if !placed && c.GetID() >= trigComment.GetID() {
			// The payload's body is the one at creation; the list may show it edited.
			out = append(out, fromTrigger())
			placed = true
			if c.GetID() == trigComment.GetID() {
				continue
			}
		}
		out = append(out, commentInput(c))
	}
	if !placed && (!snap.hasLedger || !snap.applied(trigComment.GetID())) {
		out = append(out, fromTrigger())
	}
	switch {
	case trig.Kind == triggerIssue:
		out = append(out, input{event: clarify.Event{Kind: trig.Event, At: trig.At}, user: trig.Sender})
	case snap.damaged && trig.IssueClosed:
		out = append(out, input{event: clarify.Event{Kind: clarify.EventClosed, At: trig.At}, user: trig.Sender})
	}
	return out
}

func commentInput(c *github.IssueComment) input {
	return input{
		event: clarify.Event{Kind: clarify.EventComment, CommentID: c.GetID(), Body: c.GetBody(), At: c.GetCreatedAt().Time},
		user:  c.User,
	}
}

// folded is the outcome of a fold: the new ledger, the effects to carry out, and how many
// inputs were applied (which decides whether a save that only moves the cursor is due).
type folded struct {
	ledger  clarify.Ledger
	effects []clarify.Effect
	applied int
}

// fold applies the inputs to the ledger in order, then lets time act at now, then, for a
// deadlock break, escalates the clarification it names. actorOf says who wrote an input,
// given the ledger as it stands before that input (whether a permission is worth asking
// GitHub for depends on it).
func fold(ctx context.Context, l clarify.Ledger, ins []input, actorOf func(input, clarify.Ledger) (clarify.Actor, error),
	p clarify.Policy, now time.Time, trig trigger) (folded, error) {
	logger := zerolog.Ctx(ctx)
	out := folded{ledger: l}
	for _, in := range ins {
		ev := in.event
		var err error
		if ev.Actor, err = actorOf(in, out.ledger); err != nil {
			return folded{}, err
		}
		at := now
		if !ev.At.IsZero() && ev.At.Before(now) {
			// A comment folded in late (a catch-up, a rebuild) keeps the deadlines it
			// would have set when it was written.
			at = ev.At
		}
		res := clarify.Apply(out.ledger, ev, p, at)
		logApplied(logger, in.user.GetLogin(), ev, res)
		out.ledger = res.Ledger
		out.effects = append(out.effects, res.Effects...)
		out.applied++
	}
	// Deadlines live in the ledger, so any run (an event's or the sweep's) finds what is due.
	tick := clarify.Tick(out.ledger, p, now)
	out.ledger, out.effects = tick.Ledger, append(out.effects, tick.Effects...)
	if trig.Kind == triggerBreak {
		if l, e, ok := clarify.EscalateInLedger(out.ledger, trig.Break.ID, trig.Break.Reason, "", 0, now); ok {
			out.ledger, out.effects = l, append(out.effects, e)
		}
	}
	return out, nil
}

func logApplied(logger *zerolog.Logger, author string, ev clarify.Event, res clarify.Result) {
	e := logger.Info().Str("comment_author", author).Int64(LogKeyComment, ev.CommentID).Str("event_kind", string(ev.Kind))
	if res.Ignored != "" {
		e.Msgf("Not applied: %s", res.Ignored)
		return
	}
	e.Msg("Applied to the ledger")
}
