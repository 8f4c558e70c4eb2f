package wire

import (
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/clarify-app/clarify/clarify"
)

// The event types of the wake-up dispatches, one per settling transition.
const (
	WakeAnswered  = "clarify-answered"
	WakeResolved  = "clarify-resolved"
	WakeFallback  = "clarify-fallback"
	WakeAbandoned = "clarify-abandoned"
)

// WakePayload is the client_payload of a wake-up dispatch: the clarification's record.
// GitHub allows at most 10 top-level keys and 64 KB, so the asker's own data is one key,
// and the texts give way to it when the whole would not fit (FitWake).
type WakePayload struct {
	V      int    `json:"v"`
	Issue  int    `json:"issue"`
	ID     string `json:"id"`
	Status string `json:"status"`
	Round  int    `json:"round"`
	Asker  string `json:"asker"`
	Target string `json:"target"`
	// Key names the change of state (clarify.WakeKey): a wake-up told again carries the same
	// key, so a receiver drops a repeat (docs/agents.md).
	Key string `json:"key"`
	// Answer is the last answer: for clarify-answered, and for a settled one when a
	// resolution kept it and FitWake has room for it.
	Answer string `json:"answer,omitempty"`
	// Decision is a settled clarification's decision.
	Decision string `json:"decision,omitempty"`
	// Context is the ref and state the ask carried, byte for byte; absent when it had none.
	Context *AskContext `json:"context,omitempty"`
	// Value is the typed value when the question expected one: the last answer's, or once
	// resolved the decision's (clarify.LastValue); FitWake leaves it out where GitHub has
	// no room for it.
	Value clarify.Value `json:"value,omitempty"`
}

// maxWakePayload keeps a wake-up's client_payload under GitHub's 64 KB, with room to spare.
const maxWakePayload = 60_000

// maxWakeOptional is how many of the optional keys (context, decision, answer, value) a
// payload carries: GitHub's 10 top-level keys less the eight always there.
const maxWakeOptional = 2

// FitWake is the payload's JSON within GitHub's limits. Within 10 top-level keys: eight are
// always there, so of the context, the decision, the answer and the value, in that order,
// the first two present stay (the asker's own data, then the words the event is about;
// `bot status --json` has the rest). Within maxWakePayload: the answer, then the decision,
// is shortened to the longest start that fits (marked "…"; the whole is in the issue). The
// asker's context is never cut: at 8 KiB it fits, whatever JSON makes of it.
func FitWake(p WakePayload) ([]byte, error) {
	kept := 0
	if p.Context != nil {
		kept++
	}
	for _, opt := range []*string{&p.Decision, &p.Answer, (*string)(&p.Value)} {
		switch {
		case *opt == "":
		case kept < maxWakeOptional:
			kept++
		default:
			*opt = ""
		}
	}
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
