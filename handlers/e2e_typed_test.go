package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/wire"
)

// Typed answers: an ask's Expect: line, a reply that does not fit it (answered in the
// thread, nothing else moves) and one that fits (the answer, with its typed value in the
// ledger, the asker's record and the wake-up).

const rateOptions = "\nOptions:\na) per API key\nb) per client IP"

func TestEachExpectTurnsAwayAReplyThatDoesNotFitThenTakesOneThatFits(t *testing.T) {
	cases := map[string]struct {
		ask, misfit, fit, value, expected string
	}{
		"yesNo":  {"Ship the limit on Monday?\nExpect: yes/no", "Maybe, let me check", "Yes, ship it.", "true", "Expected yes or no, such as `yes`"},
		"number": {"How many workers?\nExpect: number 1..100", "about twenty", "20 workers", "20", "Expected a number from 1 to 100, such as `42`"},
		"date":   {"When does the limit start?\nExpect: date", "next Tuesday", "Dec 1, 2026", `"2026-12-01"`, "Expected a date, such as `2026-12-01`"},
		"option": {"Per API key or per client IP?" + rateOptions + "\nExpect: option", "c", "b) per client IP", `{"key":"b","text":"per client IP"}`,
			"Expected one of the options (a, b), by its letter or its text, such as `a`"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
			w.comment("coder-agent", "/clarify @maria "+tc.ask)
			if n := w.botComments("**Answer with:** " + strings.TrimPrefix(tc.expected, "Expected ")); n != 1 {
				t.Errorf("%d rounds say what the answer is to be, want 1", n)
			}
			asked := w.ledger()
			misfit := w.comment("maria", tc.misfit)
			w.wantNotTaken(asked, misfit, tc.expected)

			fit := w.comment("maria", tc.fit)
			c, _ := w.ledger().Find("CLR-42-001")
			if c.Status != clarify.Answered || c.Round != 1 || len(c.Thread) != 2 || c.Thread[1].CommentID != fit || string(c.Thread[1].Value) != tc.value {
				t.Fatalf("after the reply that fits: %+v", c)
			}
			if rec := clarify.AskRecordOf(42, c); string(rec.Value) != tc.value || rec.Answer != tc.fit {
				t.Errorf("the asker's record: value %s, answer %q", rec.Value, rec.Answer)
			}
			sent := w.h.Fake.Dispatches(repo)
			var p wire.WakePayload
			if len(sent) != 1 || json.Unmarshal(sent[0].ClientPayload, &p) != nil || string(p.Value) != tc.value || p.Answer != tc.fit {
				t.Errorf("wake-ups %+v, want one clarify-answered with value %s", sent, tc.value)
			}
			if n := w.botComments("does-not-fit"); n != 1 {
				t.Errorf("%d replies saying a reply does not fit, want 1", n)
			}
			w.noUnhandledRequests()
			w.replayAll()
		})
	}
}

// wantNotTaken asserts that the reply in comment misfit left the clarification as asked
// (pending, round 1, no answer, nobody woken, no 👍) and got one reply of the app's that
// says what was expected.
func (w *driver) wantNotTaken(asked clarify.Ledger, misfit int64, expected string) {
	t := w.t
	t.Helper()
	before, _ := asked.Find("CLR-42-001")
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Pending || c.Round != 1 || len(c.Thread) != len(before.Thread) || !c.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("after a reply that does not fit: %+v", c)
	}
	if n := len(w.h.Fake.Dispatches(repo)); n != 0 {
		t.Errorf("%d wake-ups after a reply that does not fit, want none", n)
	}
	if r := reactionsOn(w.h, misfit); r != "" {
		t.Errorf("reactions on the reply that does not fit: %q, want none", r)
	}
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels = %q", got)
	}
	var replies []string
	for _, cm := range w.h.Fake.Comments(repo, 42) {
		if cm.User == "clarify[bot]" && strings.Contains(cm.Body, "`does-not-fit`") {
			replies = append(replies, cm.Body)
		}
	}
	if len(replies) != 1 || !strings.Contains(replies[0], "@maria: "+expected) {
		t.Fatalf("replies saying what was expected: %q, want one with %q", replies, expected)
	}
}

// TestARespondThatDoesNotFitIsNotTheAnswer: /respond is held to the same rule, and the
// reply shows the /respond that would fit.
func TestARespondThatDoesNotFitIsNotTheAnswer(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria How many workers?\nExpect: number 1..100")
	asked := w.ledger()
	misfit := w.comment("maria", "/respond CLR-42-001 between 10 and 20")
	w.wantNotTaken(asked, misfit, "Expected a number from 1 to 100, such as `42`")
	if w.botComments("`/respond CLR-42-001 42`") != 1 {
		t.Error("the reply does not show the /respond that would fit")
	}
	w.comment("maria", "/respond CLR-42-001 16")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || string(clarify.LastValue(c)) != "16" {
		t.Fatalf("after /respond 16: %+v", c)
	}
	w.replayAll()
}

// TestAMalformedExpectIsRefusedAtTheAsk: nothing is asked, and the refusal names its code.
func TestAMalformedExpectIsRefusedAtTheAsk(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria How many workers?\nExpect: a handful")
	w.comment("coder-agent", "/clarify @maria Which one?\nExpect: option")
	if w.botComments("`bad-expect`") != 1 || w.botComments("`expect-without-options`") != 1 || w.botComments("Clarification needed") != 0 {
		t.Errorf("want one refusal of each and nothing asked; the app's comments: %d", w.botComments(""))
	}
}

// TestADispatchedAskExpects: a dispatch's `expect` is the ask's Expect: line.
func TestADispatchedAskExpects(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria",
		Question: "Per API key or per client IP?", Options: []string{"per API key", "per client IP"}, Expect: "option"})
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Expect != "option" || !strings.Contains(w.mirrors()[0].Body, "Expect: option") {
		t.Fatalf("the dispatched ask: %+v", c)
	}
	asked := w.ledger()
	misfit := w.comment("maria", "whichever is cheaper")
	w.wantNotTaken(asked, misfit, "Expected one of the options (a, b)")
	w.dispatch("maria", map[string]any{"issue": 42, "action": "respond", "answer": "per API key"})
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || string(clarify.LastValue(c)) != `{"key":"a","text":"per API key"}` {
		t.Fatalf("after the dispatched answer: %+v", c)
	}
	w.replayAll()
}

// TestTheCostOfAReplyThatDoesNotFit counts the requests of a one-round lifecycle (ask,
// answer, resolve) whose first reply does not fit, beside one whose first reply does: the
// reply that does not fit costs the reads of its run and one write, the reply in the
// thread (no status edit, label, reaction or wake-up). `go test ./handlers -run
// TestTheCostOfAReplyThatDoesNotFit -v` prints the figures.
func TestTheCostOfAReplyThatDoesNotFit(t *testing.T) {
	lifecycle := func(replies ...string) (requests int, wrote []string) {
		w := &driver{t: t, h: newHarness(t)}
		w.h.Fake.ResetRequests()
		w.comment("coder-agent", "/clarify @maria How many workers?\nExpect: number 1..100")
		for _, r := range replies {
			w.comment("maria", r)
		}
		w.comment("coder-agent", "/clarify resolve CLR-42-001")
		if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved || c.Resolution != "20 workers" {
			t.Fatalf("after the lifecycle: %+v", c)
		}
		return len(w.h.Fake.Requests()), w.writeRoutes()
	}
	fits, fitsWrites := lifecycle("20 workers")
	misfits, misfitsWrites := lifecycle("about twenty", "20 workers")
	t.Logf("one-round lifecycle: %d requests (%d writes) when the first reply fits; %d (%d writes) with one reply that does not fit first",
		fits, len(fitsWrites), misfits, len(misfitsWrites))
	extra := writesBeyond(misfitsWrites, fitsWrites)
	if len(extra) != 1 || extra[0] != "POST /repos/{owner}/{repo}/issues/{issue_number}/comments" {
		t.Errorf("the reply that does not fit wrote %q more, want only the reply in the thread", extra)
	}
}

// TestTheWakeUpCarriesWhatGitHubHasRoomFor: a wake-up always carries its key, and beside it
// two of the context, the decision, the answer and the value, in that order, where more
// would pass GitHub's 10 top-level keys (the in-memory GitHub refuses such a dispatch, as
// github.com does); the answered one of a typed question carries its value.
func TestTheWakeUpCarriesWhatGitHubHasRoomFor(t *testing.T) {
	cases := map[string]struct {
		ref               string
		answered, settled string // the value each wake-up carries
		answerInSettled   bool
	}{
		"withoutContext": {ref: "", answered: "true", settled: "", answerInSettled: true},
		"withContext":    {ref: "\nRef: run-981/step-3", answered: "", settled: "", answerInSettled: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
			w.comment("coder-agent", "/clarify @maria Ship the limit on Monday?\nExpect: yes/no"+tc.ref)
			w.comment("maria", "Yes, ship it.")
			w.comment("coder-agent", "/clarify resolve CLR-42-001 Ship on Monday, behind a flag.")
			sent := w.h.Fake.Dispatches(repo)
			var answered, settled wire.WakePayload
			if len(sent) != 2 || sent[1].EventType != wire.WakeResolved || json.Unmarshal(sent[0].ClientPayload, &answered) != nil ||
				json.Unmarshal(sent[1].ClientPayload, &settled) != nil {
				t.Fatalf("wake-ups %+v, want clarify-answered then clarify-resolved", sent)
			}
			if string(answered.Value) != tc.answered || answered.Answer != "Yes, ship it." || answered.Key != "CLR-42-001/1/answered/1" {
				t.Errorf("clarify-answered payload %s, want value %q beside the answer and the key", sent[0].ClientPayload, tc.answered)
			}
			if string(settled.Value) != tc.settled || (settled.Answer != "") != tc.answerInSettled ||
				settled.Decision != "Ship on Monday, behind a flag." || settled.Key != "CLR-42-001/1/resolved" {
				t.Errorf("clarify-resolved payload %s, want the decision and the key, the answer %v", sent[1].ClientPayload, tc.answerInSettled)
			}
		})
	}
}

// TestShowSaysTheValue: `/clarify show` puts an answer's value beside its words.
func TestShowSaysTheValue(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?"+rateOptions+"\nExpect: option")
	w.comment("maria", "b) per client IP")
	w.comment("coder-agent", "/clarify show CLR-42-001")
	if w.botComments("· value `{\"key\":\"b\",\"text\":\"per client IP\"}`") != 1 {
		t.Error("the thread shown does not give the answer's value")
	}
}
