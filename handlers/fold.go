package handlers

import (
	"context"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// input is one event to fold in, with the user behind it.
type input struct {
	event clarify.Event
	user  *github.User
	// app is the App the comment was made through on user's behalf, "" for none.
	app string
	// delivery is the dispatch a mirror stands for (empty: a comment of its own).
	delivery string
}

// events lists what to fold in, oldest first: every comment newer than the ledger's cursor
// (so a lost or reordered delivery heals itself), with the trigger in its place; without a
// ledger, the comments of the last firstRunWindow before the trigger and after it.
func (run *issueRun) events() []input {
	var trigComment *github.IssueComment
	if run.trig.Kind == triggerComment {
		trigComment = run.trig.Comment
	}
	closedThen := run.refusedAsClosed()
	fromTrigger := func() input {
		// The payload tells whether the issue was closed when the trigger was written (a
		// close or reopen of an issue with nothing open costs no request, so the ledger
		// alone may lag); for older comments folded in with it, the state is not known.
		in := run.input(trigComment)
		if _, mirror := run.mirrors[trigComment.GetID()]; !mirror {
			in.app = run.trig.CommentApp // a mirror stands for its sender, who made no comment
		}
		in.event.IssueClosed = run.trig.IssueClosed || closedThen(in.event.CommentID)
		in.event.Edited = false // the payload holds the body as it was posted
		return in
	}
	var out []input
	placed := trigComment == nil
	for _, c := range run.known() {
		if !run.toFold(c, run.trig) {
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
		in := run.input(c)
		in.event.IssueClosed = in.event.IssueClosed || closedThen(in.event.CommentID)
		out = append(out, in)
	}
	if !placed && (!run.hasLedger || !run.applied(trigComment.GetID())) {
		out = append(out, fromTrigger())
	}
	return append(out, trailingEvents(run, run.trig)...)
}

// trailingEvents are what a trigger adds after the comments: an issue event itself, and
// the close of an issue whose ledger is being rebuilt (the rebuild saw it open).
func trailingEvents(snap *issueRun, trig trigger) []input {
	switch {
	case trig.Kind == triggerIssue:
		return []input{{event: clarify.Event{Kind: trig.Event, At: trig.At}, user: trig.Sender}}
	case snap.damaged && trig.IssueClosed:
		return []input{{event: clarify.Event{Kind: clarify.EventClosed, At: trig.At}, user: trig.Sender}}
	}
	return nil
}

// toFold reports whether a run folds comment c in: newer than the ledger's cursor; in a
// rebuild, from where it starts; without a ledger, of the last firstRunWindow before the
// trigger or after it.
func (run *issueRun) toFold(c *github.IssueComment, trig trigger) bool {
	switch {
	case run.damaged:
		return !c.GetCreatedAt().Time.Before(run.rebuildFrom)
	case run.hasLedger:
		return !run.applied(c.GetID())
	}
	return !c.GetCreatedAt().Time.Before(trig.At.Add(-firstRunWindow))
}

// refusedAsClosed says which comments the app refused because the issue was closed: its
// refusal (code issue-closed) carries the comment's reply marker. The issue's state when a
// comment was written is in no comment, so a fold that takes such a comment in again (a
// catch-up with no ledger to say it was applied, a rebuild) would otherwise take it as
// written in an open issue and open the ask it refused; taken as written while closed, it
// is refused again, and the refusal already posted is found by its marker.
// Only the app's own refusals count (identity.go): another workflow's look-alike, by the same
// github-actions[bot], must not refuse an ask in an open issue.
// A refusal is posted after the comment it refuses, and the fold takes in no comment at or
// before the ledger's cursor (clarify.Apply skips them): so only the comments past the
// cursor are read, and only a refusal among them has its seal checked.
func (run *issueRun) refusedAsClosed() func(commentID int64) bool {
	var refusals []*github.IssueComment
	for _, c := range run.known() {
		if c.GetID() <= run.ledger.Cursor {
			continue
		}
		if r, ok := render.ReadRecord(c.GetBody()); ok && r.Kind == string(clarify.ReplyRefusal) && r.Code == string(clarify.CodeIssueClosed) &&
			run.ownComment(run.ref, c) {
			refusals = append(refusals, c)
		}
	}
	return func(id int64) bool {
		return id != 0 && slices.ContainsFunc(refusals, func(c *github.IssueComment) bool {
			return run.reader().CarriesMark(run.ref, c, render.Marker(clarify.ReplyKey(id)))
		})
	}
}

// commentInput is a comment as read from the issue's list. One edited after it was posted
// says so: an edit never runs a command, however late the comment is first read.
func commentInput(c *github.IssueComment) input {
	return input{
		event: clarify.Event{Kind: clarify.EventComment, CommentID: c.GetID(), Body: c.GetBody(), At: c.GetCreatedAt().Time,
			Edited: c.GetUpdatedAt().Time.After(c.GetCreatedAt().Time)},
		user: c.User,
	}
}

// folded is the outcome of a fold: the new ledger, the effects to carry out, and how many
// inputs were applied (which decides whether a save that only moves the cursor is due).
type folded struct {
	ledger  clarify.Ledger
	effects []clarify.Effect
	applied int
}

// folding is what a fold needs beside the ledger and the inputs.
type folding struct {
	policy clarify.Policy
	now    time.Time
	// actorOf says who wrote an input, given the ledger as it stands before that input
	// (whether a permission is worth asking GitHub for depends on it).
	actorOf func(input, clarify.Ledger) (clarify.Actor, error)
	// roomFor reports whether a ledger's open clarifications still fit in its comment.
	roomFor func(clarify.Ledger) bool
}

// The refusal of what would grow a ledger past its comment.
const (
	noRoomProblem = "this issue's open clarifications already fill the comment that holds Clarify's ledger (GitHub allows 65,536 characters in one), so this was not taken."
	noRoomTry     = "settle some first with `/clarify resolve CLR-… <decision>` or `/clarify abandon CLR-…`, or ask in a new issue."
)

// fold applies the inputs to the ledger in order, then lets time act, then, for a
// deadlock break, escalates the clarification it names. An input that would grow the open
// clarifications past what their comment can hold is refused instead: nothing is posted
// for what the ledger could not keep.
func fold(ctx context.Context, l clarify.Ledger, ins []input, env folding, trig trigger) (folded, error) {
	logger := zerolog.Ctx(ctx)
	p, now := env.policy, env.now
	out := folded{ledger: l}
	for _, in := range ins {
		ev := in.event
		var err error
		if ev.Actor, err = env.actorOf(in, out.ledger); err != nil {
			return folded{}, err
		}
		at := now
		if !ev.At.IsZero() && ev.At.Before(now) {
			// A comment folded in late (a catch-up, a rebuild) keeps the deadlines it
			// would have set when it was written.
			at = ev.At
		}
		res := clarify.Apply(out.ledger, ev, p, at)
		if env.roomFor != nil && clarify.OpenText(res.Ledger) > clarify.OpenText(out.ledger) && !env.roomFor(res.Ledger) {
			res = clarify.Refuse(out.ledger, ev, noRoomProblem, noRoomTry)
		}
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
			out.ledger = l
			if e.Kind != "" {
				out.effects = append(out.effects, e)
			}
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
