package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// Typed decisions: a question that expected a typed answer settles with a value, the
// repository remembers it with what the question expected, and an offer of it to a new
// question that expects the same kind of answer shows the value (docs/decisions.md).

// offeredRound is the record of the round in issue n that offers an earlier decision, and
// the round's text.
func (w *driver) offeredRound(n int) (render.Record, string) {
	w.t.Helper()
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, "Decided before") {
			for _, r := range render.ReadRecords(c.Body) {
				if r.Offered != "" {
					return r, c.Body
				}
			}
		}
	}
	w.t.Fatalf("no round in #%d offers a decision:\n%s", n, w.botText(n))
	return render.Record{}, ""
}

func TestATypedDecisionIsRememberedAndOfferedWithItsValue(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria How many workers should the importer run?\nTopic: Importer workers\nExpect: number 1..100")
	w.comment("maria", "20 workers, the database takes no more.")
	// The agent settles in words of its own: maria's answer is remembered, with its value.
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Deploying with that.")
	if _, m := w.memory(); len(m.Decisions) != 1 || m.Decisions[0].Expect != "number 1..100" || m.Decisions[0].Value != "20" {
		t.Fatalf("the memory holds %+v, want maria's answer with what it expected and its value 20", m.Decisions)
	}

	// The same kind of answer, a range the value fits: the value is shown and recorded.
	w.h.Fake.OpenIssue(repo, 60, "Importer again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria How many workers for the nightly import?\nTopic: importer workers\nExpect: number 1..64")
	rec, body := w.offeredRound(60)
	if rec.Offered != "CLR-42-001" || rec.OfferedValue != "20" || !strings.Contains(body, "Its value as an answer to this question: `20`.") {
		t.Errorf("the offer in #60: record %+v, want offered_value 20 shown:\n%s", rec, body)
	}
	if c := w.statusOf(60, "CLR-60-001"); c.Precedent == nil || c.Precedent.Value != "20" || c.Status != clarify.Pending {
		t.Errorf("CLR-60-001 in the ledger: %+v, want pending with the offer's value 20", c)
	}

	// Another kind of answer: the decision is offered as words, with no value.
	w.h.Fake.OpenIssue(repo, 61, "Importer, yes or no", "maria")
	w.commentOn(61, "coder-agent", "/clarify @maria Should the importer run more workers than last time?\nTopic: Importer workers\nExpect: yes/no")
	rec, body = w.offeredRound(61)
	if rec.Offered != "CLR-42-001" || rec.OfferedValue != "" || strings.Contains(body, "Its value as an answer") || !strings.Contains(body, "> 20 workers") {
		t.Errorf("the offer in #61: record %+v, want the words offered and no value:\n%s", rec, body)
	}
	w.replayAll()
}

// TestAnOptionDecisionSettlesFromPrecedentAsTheNewQuestionsOption: the option is matched
// by its text, takes the new question's letter, and the resolution from precedent carries
// it to the asker's record and wake-up.
func TestAnOptionDecisionSettlesFromPrecedentAsTheNewQuestionsOption(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "sla: 24h\nnotify:\n  dispatch: true\ndecisions:\n  settle_after: 2h\n")
	w.comment("coder-agent", "/clarify @maria Which key should the rate limit count by?\nTopic: Rate limit key"+rateOptions+"\nExpect: option")
	w.comment("maria", "b")
	w.comment("coder-agent", "/clarify resolve CLR-42-001")
	w.h.Fake.OpenIssue(repo, 60, "Limits for the search API", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Which key for the search API's limit?\nTopic: rate limit key\nOptions:\na) per client IP\nb) per user\nExpect: option")
	want := `{"key":"a","text":"per client IP"}`
	if rec, _ := w.offeredRound(60); string(rec.OfferedValue) != want {
		t.Errorf("the offer's value %s, want %s: the new question's letter", rec.OfferedValue, want)
	}
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	c := w.statusOf(60, "CLR-60-001")
	if rec := clarify.AskRecordOf(60, c); c.Status != clarify.Resolved || string(rec.Value) != want {
		t.Fatalf("CLR-60-001 is %s with value %s, want resolved from precedent with %s", c.Status, rec.Value, want)
	}
	if p, ok := wakeOf(w, wire.WakeResolved, "CLR-60-001"); !ok || string(p.Value) != want {
		t.Errorf("the wake-up for CLR-60-001: %+v, want value %s", p, want)
	}
	w.replayAll()
}

// TestAFallbackTakenOnTimeoutWakesTheAskerWithItsValue: the fallback of an `Expect: number` question
// is read as an answer, and the asker is woken with its value.
func TestAFallbackTakenOnTimeoutWakesTheAskerWithItsValue(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w.comment("coder-agent", "/clarify @maria How many workers?\nOptions:\na) 8 workers\nb) 4 workers\nFallback: b\nExpect: number 1..100")
	for i := 0; i < 2; i++ {
		w.h.Fake.Advance(31 * time.Minute)
		w.sweep()
	}
	c := w.ledger().Clarifications[0]
	if rec := clarify.AskRecordOf(42, c); rec.Outcome != clarify.OutcomeTimeoutAssumed || rec.Decision != "b) 4 workers" || rec.Value != "4" {
		t.Fatalf("after two SLAs the record is %+v, want the fallback b taken with value 4", rec)
	}
	if p, ok := wakeOf(w, wire.WakeFallback, c.ID); !ok || p.Value != "4" {
		t.Errorf("the wake-up: %+v, want value 4", p)
	}
	w.replayAll()
}

// wakeOf is the wake-up of the given event type sent for clarification id.
func wakeOf(w *driver, event, id string) (wire.WakePayload, bool) {
	for _, d := range w.h.Fake.Dispatches(repo) {
		var p wire.WakePayload
		if d.EventType == event && json.Unmarshal(d.ClientPayload, &p) == nil && p.ID == id {
			return p, true
		}
	}
	return wire.WakePayload{}, false
}
