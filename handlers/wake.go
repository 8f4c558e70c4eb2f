package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/wire"
)

// The wake-up: with notify.dispatch on, the app sends a repository_dispatch each time a
// clarification settles, so that an agent's workflow `on: repository_dispatch` resumes with
// the outcome as data rather than polling the issue. GitHub starts workflows for a
// repository_dispatch even when a workflow's own GITHUB_TOKEN sent it.
// https://docs.github.com/en/rest/repos/repos#create-a-repository-dispatch-event
//
// Never more than one per state change, and for answers only a new answerer's, twice a round
// at most (clarify.AnswerWakes): the ledger is the record. A dispatch is sent only
// by the run whose save moved a clarification into the state (the saved ledger has it, the
// ledger the run loaded did not), and only once that save stands: a redelivery, a replay or
// a second run loads the ledger with the state already in it and sends nothing. A run that
// rebuilt a damaged ledger sends nothing, since it cannot tell what was sent before. GitHub
// offers no way to look a dispatch up, so one that fails (or whose answer is lost) is not
// sent again: at most once, and the failure is returned, so that it shows. A status comment
// put back to an older body is not taken for the app's (ledger/trust.go), so its next run
// rebuilds and wakes nobody; each wake-up still carries the key of its change of state
// (clarify.WakeKey), so that a receiver drops a repeat whatever sent it.

// wake sends the dispatches for what the run's save settled.
func (run *issueRun) wake(ctx context.Context, saved clarify.Ledger) error {
	n := run.cfg.Notify
	if !n.Dispatch || run.damaged {
		return nil
	}
	var errs []error
	for _, w := range wakeUps(run.ledger, saved) {
		raw, err := wire.FitWake(w.payload)
		if err != nil {
			return err
		}
		msg := json.RawMessage(raw)
		_, _, err = run.client.Repositories.Dispatch(ctx, run.ref.Owner, run.ref.Repo, github.DispatchRequestOptions{EventType: w.event, ClientPayload: &msg})
		if err != nil {
			hint := ""
			if ghtransport.IsStatus(err, http.StatusForbidden) || ghtransport.IsStatus(err, http.StatusNotFound) {
				// GitHub answers so when the token may not dispatch: the setting is on, the
				// permission is not, and the operator is the one to tell.
				hint = " (sending a repository_dispatch needs contents: write: in the workflow's permissions, or the App's settings)"
			}
			errs = append(errs, fmt.Errorf("wake-up %s for %s on %s%s: %w", w.event, w.payload.ID, run.ref.String(), hint, err))
			continue
		}
		zerolog.Ctx(ctx).Info().Str("event_type", w.event).Str("clarification", w.payload.ID).Str("wake_key", w.payload.Key).Msg("Sent a wake-up dispatch")
	}
	return errors.Join(errs...)
}

type wakeUp struct {
	event   string
	payload wire.WakePayload
}

// wakeUps lists the settling transitions from before to after, in the ledger's order.
func wakeUps(before, after clarify.Ledger) []wakeUp {
	var out []wakeUp
	for _, c := range after.Clarifications {
		old, ok := before.Find(c.ID)
		// An answered one is judged by its answers: a second person's answer in the round
		// leaves the status as it was and still wakes the asker.
		if c.Status == clarify.Answered && !clarify.AnswerWakes(old, ok, c) ||
			c.Status != clarify.Answered && ok && old.Status == c.Status && old.Round == c.Round {
			continue
		}
		event := wakeEvent(c)
		if event == "" {
			continue
		}
		p := wire.WakePayload{V: 1, Issue: after.Issue, ID: c.ID, Status: string(c.Status),
			Round: c.Round, Asker: c.Asker.Login, Target: c.Target.Name, Key: clarify.WakeKey(c), Answer: clarify.LastAnswer(c), Decision: c.Resolution,
			Value: clarify.LastValue(c)}
		if c.Ref != "" || c.State != "" {
			p.Context = &wire.AskContext{Ref: c.Ref, State: c.State}
		}
		out = append(out, wakeUp{event: event, payload: p})
	}
	return out
}

// wakeEvent is the event type of c's state: answered, or how it settled (clarify.Outcome);
// "" for a state nobody waits on (a stale or escalated answer was sent when it came).
func wakeEvent(c clarify.Clarification) string {
	if c.Status == clarify.Answered {
		return wire.WakeAnswered
	}
	if c.Status.Open() {
		return ""
	}
	switch clarify.Outcome(c) {
	case clarify.OutcomeResolved:
		return wire.WakeResolved
	case clarify.OutcomeTimeoutAssumed:
		return wire.WakeFallback
	case clarify.OutcomeAbandoned:
		return wire.WakeAbandoned
	}
	return ""
}
