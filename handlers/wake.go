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
	"github.com/clarify-app/clarify/repoconfig"
)

// The wake-up: with notify.dispatch on, the app sends a repository_dispatch each time a
// clarification settles, so that an agent's workflow `on: repository_dispatch` resumes with
// the outcome as data rather than polling the issue. GitHub starts workflows for a
// repository_dispatch even when a workflow's own GITHUB_TOKEN sent it.
// https://docs.github.com/en/rest/repos/repos#create-a-repository-dispatch-event
//
// Never more than one per state change, and one answer's a round (clarify.AnswerWakes): the
// ledger is the record. A dispatch is sent only
// by the run whose save moved a clarification into the state (the saved ledger has it, the
// ledger the run loaded did not), and only once that save stands: a redelivery, a replay or
// a second run loads the ledger with the state already in it and sends nothing. A run that
// rebuilt a damaged ledger sends nothing, since it cannot tell what was sent before. GitHub
// offers no way to look a dispatch up, so one that fails (or whose answer is lost) is not
// sent again: at most once, and the failure is returned, so that it shows.

// The event types of the wake-up dispatches, one per settling transition.
const (
	WakeAnswered  = "clarify-answered"
	WakeResolved  = "clarify-resolved"
	WakeFallback  = "clarify-fallback"
	WakeAbandoned = "clarify-abandoned"
)

// WakePayload is the client_payload of a wake-up dispatch: the clarification's record
// (GitHub allows at most 10 top-level properties).
type WakePayload struct {
	V      int    `json:"v"`
	Issue  int    `json:"issue"`
	ID     string `json:"id"`
	Status string `json:"status"`
	Round  int    `json:"round"`
	Asker  string `json:"asker"`
	Target string `json:"target"`
	// Answer is the last answer, for clarify-answered and when a resolution kept it.
	Answer string `json:"answer,omitempty"`
	// Decision is a settled clarification's decision.
	Decision string `json:"decision,omitempty"`
}

// wake sends the dispatches for what the run's save settled.
func (b *Base) wake(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, saved clarify.Ledger, n repoconfig.Notify) error {
	if !n.Dispatch || snap.damaged {
		return nil
	}
	var errs []error
	for _, w := range wakeUps(snap.ledger, saved) {
		raw, err := json.Marshal(w.payload)
		if err != nil {
			return err
		}
		msg := json.RawMessage(raw)
		_, _, err = client.Repositories.Dispatch(ctx, ref.Owner, ref.Repo, github.DispatchRequestOptions{EventType: w.event, ClientPayload: &msg})
		if err != nil {
			hint := ""
			if ghtransport.IsStatus(err, http.StatusForbidden) || ghtransport.IsStatus(err, http.StatusNotFound) {
				// GitHub answers so when the token may not dispatch: the setting is on, the
				// permission is not, and the operator is the one to tell.
				hint = " (sending a repository_dispatch needs contents: write: in the workflow's permissions, or the App's settings)"
			}
			errs = append(errs, fmt.Errorf("wake-up %s for %s on %s%s: %w", w.event, w.payload.ID, ref.key(), hint, err))
			continue
		}
		zerolog.Ctx(ctx).Info().Str("event_type", w.event).Str("clarification", w.payload.ID).Msg("Sent a wake-up dispatch")
	}
	return errors.Join(errs...)
}

type wakeUp struct {
	event   string
	payload WakePayload
}

// wakeUps lists the settling transitions from before to after, in the ledger's order.
func wakeUps(before, after clarify.Ledger) []wakeUp {
	var out []wakeUp
	for _, c := range after.Clarifications {
		old, ok := before.Find(c.ID)
		if ok && old.Status == c.Status && old.Round == c.Round || c.Status == clarify.Answered && !clarify.AnswerWakes(old, ok, c) {
			continue
		}
		event := wakeEvent(after, c)
		if event == "" {
			continue
		}
		out = append(out, wakeUp{event: event, payload: WakePayload{V: 1, Issue: after.Issue, ID: c.ID, Status: string(c.Status),
			Round: c.Round, Asker: c.Asker.Login, Target: c.Target.Name, Answer: lastAnswer(c), Decision: c.Resolution}})
	}
	return out
}

// wakeEvent is the event type of c's state, "" for a state nobody waits on.
func wakeEvent(l clarify.Ledger, c clarify.Clarification) string {
	switch c.Status {
	case clarify.Answered:
		return WakeAnswered
	case clarify.Abandoned:
		return WakeAbandoned
	case clarify.Resolved:
		for _, a := range l.Assumptions {
			if a.Clarification == c.ID && a.Source == clarify.SourceTimeoutAssumed {
				return WakeFallback
			}
		}
		return WakeResolved
	}
	return ""
}

func lastAnswer(c clarify.Clarification) string {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		if c.Thread[i].Kind == clarify.KindAnswer {
			return c.Thread[i].Text
		}
	}
	return ""
}
