package handlers_test

import (
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// An ask in a closed issue is refused ("this issue is closed"); the next command in the
// issue folds the comments its ledger has not applied, the refused ask among them, and
// must not take it then: the ask stays refused, whether or not the issue had a ledger.
func TestAnAskRefusedInAClosedIssueStaysRefused(t *testing.T) {
	for name, before := range map[string][]string{
		"withoutALedger": nil,
		"withALedger":    {"/clarify @maria Per key or per IP?", "/clarify resolve CLR-42-001 Per key."},
	} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			for _, body := range before {
				w.comment("coder-agent", body)
			}
			w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
			w.comment("coder-agent", "/clarify @maria Which region stores the logs?")
			if n := w.botComments("this issue is closed"); n != 1 {
				t.Fatalf("the ask in the closed issue got %d refusals, want 1", n)
			}
			w.comment("maria", "/clarify stats")
			w.comment("coder-agent", "/clarify")
			if got := w.labels(); got != "" {
				t.Errorf("labels after the refused ask and two more commands = %q, want none", got)
			}
			if before != nil {
				for _, c := range w.ledger().Clarifications {
					if c.Status.Open() {
						t.Errorf("%s (%q) is %s in the closed issue, want the ask refused", c.ID, c.Topic, c.Status)
					}
				}
			} else if n := w.botComments(render.StatusMarker); n != 0 {
				t.Errorf("%d status comments in an issue that never had a clarification: %s", n, w.h.Fake.Transcript(repo, 42))
			}
			if n := w.botComments("Clarification needed"); n != len(before)/2 {
				t.Errorf("%d round comments, want %d: the refused ask was mirrored", n, len(before)/2)
			}
			w.replayAll()
		})
	}
}

// TestAnAskAfterReopenIsStillTaken is the guard: an ask refused while the issue was closed
// stays refused, and an ask once it is reopened is taken.
func TestAnAskAfterAReopenIsTakenAndTheRefusedOneIsNot(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	w.comment("coder-agent", "/clarify @maria Which region stores the logs?")
	w.send(w.h.Fake.ReopenIssue(repo, 42, "maria"))
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	l := w.ledger()
	if len(l.Clarifications) != 1 || l.Clarifications[0].Status != clarify.Pending || w.labels() != "clarification:active" {
		t.Fatalf("after the reopen: %+v, labels %q; want only the new ask, pending", l.Clarifications, w.labels())
	}
}
