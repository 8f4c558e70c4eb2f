package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"unicode/utf8"

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

// WakePayload is the client_payload of a wake-up dispatch: the clarification's record.
// GitHub allows at most 10 top-level keys and 64 KB, so the asker's own data is one key,
// and the texts give way to it when the whole would not fit (fitWake).
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
	// Context is the ref and state the ask carried, byte for byte; absent when it had none.
	Context *AskContext `json:"context,omitempty"`
	// Value is the last answer's typed value, when its round expected one
	// (clarify.LastValue); see roomForValue.
	Value clarify.Value `json:"value,omitempty"`
}

// roomForValue leaves the value out where GitHub's 10 top-level keys leave no room for it:
// seven keys are always there, and the answer, the decision, the context and the value come
// all four only on a settled wake-up of a typed question that carried a context. There the
// words and the asker's own data stay, and the record (`bot status --json`) has the value.
func roomForValue(p WakePayload) WakePayload {
	if p.Answer != "" && p.Decision != "" && p.Context != nil {
		p.Value = ""
	}
	return p
}

// maxWakePayload keeps a wake-up's client_payload under GitHub's 64 KB, with room to spare.
const maxWakePayload = 60_000

// fitWake is the payload's JSON within maxWakePayload: the answer, then the decision, is
// shortened to the longest start that fits (marked "…"; the whole is in the issue). The
// asker's context is never cut: at 8 KiB it fits, whatever JSON makes of it.
func fitWake(p WakePayload) ([]byte, error) {
	raw, err := json.Marshal(p)
	if err != nil || len(raw) <= maxWakePayload {
		return raw, err
	}
	for _, text := range []*string{&p.Answer, &p.Decision} {
		whole := *text
		fits := func(n int) bool {
			*text = cut(whole, n)
			raw, err = json.Marshal(p)
			return err == nil && len(raw) <= maxWakePayload
		}
		// The longest start that fits; a marshal failure ends the search as a misfit.
		keep := sort.Search(len(whole)+1, func(n int) bool { return !fits(n) }) - 1
		if keep >= 0 {
			*text = cut(whole, keep)
			return json.Marshal(p)
		}
		*text = ""
	}
	return json.Marshal(p)
}

// cut is the first n bytes of s, back to a rune boundary, marked as cut ("" for none).
func cut(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if n == 0 {
		return ""
	}
	return s[:n] + "…"
}

// wake sends the dispatches for what the run's save settled.
func (b *Base) wake(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, saved clarify.Ledger, n repoconfig.Notify) error {
	if !n.Dispatch || snap.damaged {
		return nil
	}
	var errs []error
	for _, w := range wakeUps(snap.ledger, saved) {
		raw, err := fitWake(w.payload)
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
		event := wakeEvent(c)
		if event == "" {
			continue
		}
		p := WakePayload{V: 1, Issue: after.Issue, ID: c.ID, Status: string(c.Status),
			Round: c.Round, Asker: c.Asker.Login, Target: c.Target.Name, Answer: clarify.LastAnswer(c), Decision: c.Resolution,
			Value: clarify.LastValue(c)}
		if c.Ref != "" || c.State != "" {
			p.Context = &AskContext{Ref: c.Ref, State: c.State}
		}
		out = append(out, wakeUp{event: event, payload: roomForValue(p)})
	}
	return out
}

// wakeEvent is the event type of c's state: answered, or how it settled (clarify.Outcome);
// "" for a state nobody waits on (a stale or escalated answer was sent when it came).
func wakeEvent(c clarify.Clarification) string {
	if c.Status == clarify.Answered {
		return WakeAnswered
	}
	if c.Status.Open() {
		return ""
	}
	switch clarify.Outcome(c) {
	case clarify.OutcomeResolved:
		return WakeResolved
	case clarify.OutcomeTimeoutAssumed:
		return WakeFallback
	case clarify.OutcomeAbandoned:
		return WakeAbandoned
	}
	return ""
}
