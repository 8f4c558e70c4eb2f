package handlers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// summary is what a maintainer would compare: each clarification's id, status and round.
func summary(l clarify.Ledger) string {
	var parts []string
	for _, c := range l.Clarifications {
		parts = append(parts, c.ID+":"+string(c.Status)+":"+string(rune('0'+c.Round)))
	}
	return strings.Join(parts, ",")
}

func TestStatusCommentEditedByHandIsRebuiltNotTrusted(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.comment("maria", "Per key.")
	w.comment("coder-agent", "/clarify @maria --non-blocking Which limit?")
	want := summary(w.ledger())

	id, body := w.statusComment()
	// maria "fixes" the ledger by hand: she flips a character of the hidden block.
	i := strings.Index(body, "clarify:ledger v1 ") + len("clarify:ledger v1 ") + 10
	forged := body[:i] + string(rune(body[i]^1)) + body[i+1:]
	w.send(w.h.Fake.EditComment(repo, id, "maria", forged))

	if got := summary(w.ledger()); got != want {
		t.Errorf("rebuilt ledger %s, want %s", got, want)
	}
	if n := w.botComments("rebuilt the ledger"); n != 1 {
		t.Errorf("%d rebuild notices, want 1", n)
	}
	if n := w.botComments("Clarification needed"); n != 2 {
		t.Errorf("%d round comments after the rebuild, want the 2 there were", n)
	}
	w.comment("maria", "100 a minute.")
	if c, _ := w.ledger().Find("CLR-42-002"); c.Status != clarify.Answered {
		t.Errorf("after the rebuild the protocol goes on: %s", c.Status)
	}
	w.replayAll()
}

func TestDeletedStatusCommentIsRebuilt(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.comment("maria", "Per key.")
	want := summary(w.ledger())
	id, _ := w.statusComment()
	w.send(w.h.Fake.DeleteComment(repo, id, "maria"))
	if got := summary(w.ledger()); got != want {
		t.Errorf("rebuilt ledger %s, want %s", got, want)
	}
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels %q", got)
	}
}

func TestCosmeticEditOfTheStatusCommentIsPutBack(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	id, body := w.statusComment()
	before := w.ledger()
	w.send(w.h.Fake.EditComment(repo, id, "maria", "Hello!\n\n"+body))
	// Put back as a save of its own, so that no reader takes it for a body put back by
	// someone else: the same clarifications at a newer revision.
	if _, got := w.statusComment(); strings.Contains(got, "Hello!") || summary(w.ledger()) != summary(before) || w.ledger().Rev <= before.Rev {
		t.Errorf("the status comment was not put back (rev %d, was %d):\n%s", w.ledger().Rev, before.Rev, got)
	}
	if n := w.botComments("rebuilt the ledger"); n != 0 {
		t.Errorf("a verified ledger needs no rebuild notice")
	}
}

func TestRebuildOfAClosedIssueKeepsWhatTheCloseAbandoned(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	id, _ := w.statusComment()
	w.send(w.h.Fake.DeleteComment(repo, id, "maria"))
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Errorf("after rebuilding a closed issue: %s, want abandoned", c.Status)
	}
}

func TestALedgerRebuiltAfterADeletionIsSavedAboveTheDeletedOne(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.comment("maria", "Per key.")
	w.comment("coder-agent", "/clarify followup CLR-42-001 Which limit?")
	deleted := w.ledger().Rev
	id, _ := w.statusComment()
	// The deletion reaches a fresh process, one that never saw the issue (another replica,
	// or after a restart): only the deletion's payload tells it how far the ledger had got.
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.send(w.h.Fake.DeleteComment(repo, id, "maria"))
	if got := w.ledger().Rev; got <= deleted {
		t.Errorf("rebuilt ledger saved at revision %d, want above the deleted one's %d", got, deleted)
	}
}
