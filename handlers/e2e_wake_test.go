package handlers_test

import (
	"encoding/json"
	"testing"

	"github.com/clarify-app/clarify/handlers"
)

// TestWakeUpInAppMode: the App sends the same wake-up dispatch as bot action, as its bot,
// once: redelivering every delivery sends none again.
func TestWakeUpInAppMode(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	w.replayAll()
	sent := w.h.Fake.Dispatches(repo)
	if len(sent) != 2 || sent[0].EventType != handlers.WakeAnswered || sent[1].EventType != handlers.WakeResolved {
		t.Fatalf("dispatches = %+v, want clarify-answered then clarify-resolved, once each", sent)
	}
	var p handlers.WakePayload
	if err := json.Unmarshal(sent[1].ClientPayload, &p); err != nil || p.Decision != "Per API key." || p.Issue != 42 ||
		sent[1].Sender != w.h.Fake.BotLogin() {
		t.Errorf("resolved dispatch from %s: %+v, %v", sent[1].Sender, p, err)
	}
}
