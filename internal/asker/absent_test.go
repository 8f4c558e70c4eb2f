package asker_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// TestAnIDNoAskCanBecomeIsUnknownAtOnce (issue 40): the issue has handed out CLR-42-001
// and no ask waits for Clarify to take it, so CLR-42-099 and CLR-42-002 can be no ask in
// flight: bot wait and bot status say unknown-clarification at once, and print no record
// of zero values.
func TestAnIDNoAskCanBecomeIsUnknownAtOnce(t *testing.T) {
	w := newWorld(t)
	w.ask()
	for _, id := range []string{"CLR-42-099", "CLR-42-002"} {
		start := w.h.Fake.Now()
		code, out, errs := w.run(asker.Door.Wait, "--json", "octo/widgets#42", id, "--timeout", "20s")
		if code != asker.ExitError || out != "" || !strings.Contains(errs, string(clarify.CodeUnknownID)) || !strings.Contains(errs, "CLR-42-001") {
			t.Errorf("bot wait %s: exit %d, stdout %q, stderr %q; want 1, unknown-clarification naming the last, CLR-42-001, and no record",
				id, code, out, errs)
		}
		if waited := w.h.Fake.Now().Sub(start); waited >= 20*time.Second {
			t.Errorf("bot wait %s waited %s of its 20s; want an answer at once", id, waited)
		}
		code, out, errs = w.run(asker.Door.Status, "--json", "octo/widgets#42", id)
		if code != asker.ExitError || out != "" || !strings.Contains(errs, string(clarify.CodeUnknownID)) {
			t.Errorf("bot status %s: exit %d, stdout %q, stderr %q; want 1 and unknown-clarification", id, code, out, errs)
		}
	}
}

// TestAnAskNotTakenYetIsAPostedRecord (issue 40): an ask is in the issue and Clarify has
// not taken it (its delivery is held), so CLR-42-002 may be it: bot status and bot wait
// answer with its record, status posted, the id asked about and no zero values, and
// exit 5; CLR-42-003, past what one ask can become, is unknown.
func TestAnAskNotTakenYetIsAPostedRecord(t *testing.T) {
	w := newWorld(t)
	w.ask()
	w.pump = false
	// An ask Clarify will refuse (one's own self is no target), held on its way.
	held, _ := w.h.Fake.Comment(repo, issue, agent, "/clarify @coder-agent Which header carries the limit?")
	for _, cmd := range []struct {
		name string
		run  func(asker.Door, []string) int
		args []string
	}{
		{"status", asker.Door.Status, []string{"--json", "octo/widgets#42", "CLR-42-002"}},
		{"wait", asker.Door.Wait, []string{"--json", "octo/widgets#42", "CLR-42-002", "--timeout", "30s"}},
	} {
		code, out, errs := w.run(cmd.run, cmd.args...)
		checkPosted(t, "bot "+cmd.name, code, out, errs)
	}
	code, out, errs := w.run(asker.Door.Status, "octo/widgets#42", "CLR-42-002")
	if first, _, _ := strings.Cut(out, "\n"); code != asker.ExitPosted || first != "CLR-42-002  posted" || !strings.Contains(errs, "has not taken it yet") {
		t.Errorf("bot status CLR-42-002 for people: exit %d, %q, stderr %q; want 5, the line CLR-42-002  posted and why", code, out, errs)
	}
	code, _, errs = w.run(asker.Door.Status, "octo/widgets#42", "CLR-42-003")
	if code != asker.ExitError || !strings.Contains(errs, string(clarify.CodeUnknownID)) {
		t.Errorf("bot status CLR-42-003 with one ask not taken: exit %d, stderr %q; want 1 and unknown-clarification", code, errs)
	}

	// Clarify takes the ask in, and refuses it: nothing can become CLR-42-002 any more,
	// and a wait says so at once instead of waiting out its time.
	w.deliver(held)
	code, out, errs = w.run(asker.Door.Wait, "octo/widgets#42", "CLR-42-002", "--timeout", "30s")
	if code != asker.ExitError || out != "" || !strings.Contains(errs, string(clarify.CodeUnknownID)) {
		t.Errorf("bot wait CLR-42-002 once its only candidate was refused: exit %d, stdout %q, stderr %q; want 1 and unknown-clarification",
			code, out, errs)
	}
}

// checkPosted checks what a command printed of an ask Clarify has not taken yet (CLR-42-002):
// exit 5, its record with status posted, the id asked about, next wait and no zero values,
// and stderr saying why.
func checkPosted(t *testing.T, name string, code int, out, errs string) {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != asker.ExitPosted {
		t.Fatalf("%s of an ask not taken yet: exit %d, stdout %q, stderr %q; want 5 and a record", name, code, out, errs)
	}
	if rec["status"] != clarify.StatusPosted || rec["id"] != "CLR-42-002" || rec["next"] != clarify.NextWait {
		t.Errorf("%s: %v; want status posted, the id asked about, next wait", name, rec)
	}
	for _, zero := range []string{"created_at", "asker", "target", "round"} {
		if _, ok := rec[zero]; ok {
			t.Errorf("%s: the posted record carries %s: %v", name, zero, rec[zero])
		}
	}
	if !strings.Contains(errs, "has not taken it yet") {
		t.Errorf("%s's stderr %q; want it to say Clarify has not taken it yet", name, errs)
	}
}
