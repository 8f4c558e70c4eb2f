package asker_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/asker"
)

func TestBotResolveFollowupAndAbandonPrintTheRecord(t *testing.T) {
	w := newWorld(t)
	id := w.answered()
	code, out, errs := w.run(asker.Door.Followup, "octo/widgets#42", id, "Does that hold for cached reads?")
	if code != 0 || !strings.HasPrefix(out, "CLR-42-001  pending  round 2") {
		t.Fatalf("bot followup: exit %d, stdout %q, stderr %q; want 0 and the record in round 2", code, out, errs)
	}
	w.after(time.Minute, w.say(person, "Yes, cached reads count too."))
	if code, out, errs = w.run(asker.Door.Wait, "octo/widgets#42", id); code != 0 {
		t.Fatalf("bot wait: exit %d, %s %s", code, out, errs)
	}
	code, out, errs = w.run(asker.Door.Resolve, "--json", "octo/widgets#42", id, "per client IP, cached reads included")
	if code != 0 || !strings.Contains(out, `"status": "resolved"`) || !strings.Contains(out, `"decision": "per client IP, cached reads included"`) {
		t.Fatalf("bot resolve --json: exit %d, stdout %s, stderr %s; want the resolved record", code, out, errs)
	}
	// Settled: a second settle is refused, with the app's code and its reason.
	code, out, errs = w.run(asker.Door.Abandon, "octo/widgets#42", id, "--dispatch")
	if code != 1 || strings.TrimSpace(out) != "already-settled" || !strings.Contains(errs, "CLR-42-001 is already resolved") {
		t.Errorf("bot abandon of a resolved one: exit %d, stdout %q, stderr %q; want 1, already-settled and why", code, out, errs)
	}
}

func TestBotSettleMistakesExitTwoBeforeAnyRequest(t *testing.T) {
	w := newWorld(t)
	w.wire.counts()
	for name, run := range map[string][]string{
		"otherIssuesID":   {"resolve", "octo/widgets#42", "CLR-41-001"},
		"notAnID":         {"abandon", "octo/widgets#42", "step-3"},
		"noQuestion":      {"followup", "octo/widgets#42", "CLR-42-001"},
		"noID":            {"resolve", "octo/widgets#42"},
		"waitOtherIssues": {"wait", "octo/widgets#42", "CLR-7-001"},
		"waitIDAndRef":    {"wait", "octo/widgets#42", "CLR-42-001", "--ref", "step-3"},
		"statusBadID":     {"status", "octo/widgets#42", "CLR-42-"},
		"appWithBot":      {"status", "--app", "clarify[bot]", "octo/widgets#42"},
	} {
		cmd := map[string]func(asker.Door, []string) int{"resolve": asker.Door.Resolve, "abandon": asker.Door.Abandon,
			"followup": asker.Door.Followup, "wait": asker.Door.Wait, "status": asker.Door.Status}[run[0]]
		code, out, errs := w.run(cmd, run[1:]...)
		if code != asker.ExitUsage || out != "" || errs == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and a word on stderr", name, code, out, errs)
		}
	}
	if notModified, other, lines := w.wire.counts(); notModified+other != 0 {
		t.Errorf("usage mistakes made requests: %v", lines)
	}
}

func TestBotResolveNotTakenExitsFive(t *testing.T) {
	w := newWorld(t)
	id := w.answered()
	w.pump = false
	code, out, errs := w.run(asker.Door.Resolve, "octo/widgets#42", id, "--timeout", "20s", "--json")
	if code != asker.ExitPosted || !strings.Contains(out, `"status": "answered"`) || !strings.Contains(errs, "not taken in time") {
		t.Errorf("bot resolve nobody takes: exit %d, stdout %s, stderr %q; want 5, the record as it stands and why", code, out, errs)
	}
}

func TestBotWaitAndStatusByRef(t *testing.T) {
	w := newWorld(t)
	w.ask("--ref", "run-9/step-1")
	code, out, errs := w.run(asker.Door.Status, "octo/widgets#42", "--ref", "run-9/step-1")
	if code != 0 || !strings.HasPrefix(out, "CLR-42-001  pending") || !strings.Contains(out, "next: wait") {
		t.Errorf("bot status --ref: exit %d, %q %q; want CLR-42-001 pending, to wait", code, out, errs)
	}
	w.after(2*time.Minute, w.say(person, "Per API key."))
	code, out, errs = w.run(asker.Door.Wait, "octo/widgets#42", "--ref", "run-9/step-1", "--json")
	if code != 0 || !strings.Contains(out, `"answer": "Per API key."`) || !strings.Contains(out, `"url": "`+w.h.GitHub.URL+`/octo/widgets/issues/42"`) {
		t.Errorf("bot wait --ref: exit %d, %s %s; want the answer and the issue's page", code, out, errs)
	}
}
