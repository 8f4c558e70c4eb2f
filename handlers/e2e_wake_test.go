package handlers_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/wire"
)

// TestWakeUpInAppMode: the App sends the same wake-up dispatch as bot action, as its bot,
// once: redelivering every delivery sends none again.
func TestWakeUpInAppMode(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	w.replayAll()
	sent := w.h.Fake.Dispatches(repo)
	if len(sent) != 2 || sent[0].EventType != wire.WakeAnswered || sent[1].EventType != wire.WakeResolved {
		t.Fatalf("dispatches = %+v, want clarify-answered then clarify-resolved, once each", sent)
	}
	var p wire.WakePayload
	if err := json.Unmarshal(sent[1].ClientPayload, &p); err != nil || p.Decision != "Per API key." || p.Issue != 42 ||
		sent[1].Sender != w.h.Fake.BotLogin() {
		t.Errorf("resolved dispatch from %s: %+v, %v", sent[1].Sender, p, err)
	}
}

// TestAWakeUpGitHubRefusesSaysWhichPermissionItNeeds: notify.dispatch is on but the App
// may not dispatch (GitHub answers 403): the run fails, once, and its log names the
// permission; the answer itself is taken and not sent again.
func TestAWakeUpGitHubRefusesSaysWhichPermissionItNeeds(t *testing.T) {
	var logs testenv.Buffer
	h := newHarnessLogging(t, &logs, nil)
	h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w := &driver{t: t, h: h}
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	h.Fake.DenyNext("POST /repos/{owner}/{repo}/dispatches", 10)
	d, _ := h.Fake.Comment(repo, 42, "maria", "Per API key.")
	if _, err := h.Deliver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Errorf("after the refused wake-up: %q, want the answer taken", got)
	}
	if !strings.Contains(logs.String(), "needs contents: write") {
		t.Errorf("the log does not say which permission the wake-up needs:\n%s", logs.String())
	}
}
