package handlers_test

import (
	"context"
	"testing"
	"time"
)

// Which lost deliveries heal, and how (docs/ledger.md, docs/operations.md). A delivery
// "lost" here never reached the app and is not in GitHub's delivery log (GitHub never sent
// it); a dropped one is in the log as failed, which the app asks GitHub for again.

const lostAsk = "/clarify @maria Per API key or per client IP?"

// freshIssueLosingItsAsk is a world whose issue #42 gets coder-agent's ask, whose
// delivery is lost, as its first command.
func freshIssueLosingItsAsk(t *testing.T) *driver {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.Comment(repo, 42, "coder-agent", lostAsk)
	return w
}

// TestALostAnswerHealsOnTheNextEvent: in an issue with a ledger, the answer's delivery is
// lost; the next comment in the issue, a plain one by anyone, folds it in.
func TestALostAnswerHealsOnTheNextEvent(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", lostAsk)
	w.h.Fake.Advance(time.Minute)
	w.h.Fake.Comment(repo, 42, "maria", "Per API key.") // lost
	w.h.Fake.Advance(10 * time.Minute)
	w.comment("bob", "Thanks, following along.")
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Errorf("after the next event: %q, want the lost answer taken", got)
	}
}

// TestALostFirstAskIsHealedByALaterCommandOnly: in a fresh issue, the ask's delivery is
// lost. A plain reply costs nothing and heals nothing (no status comment, no label, no
// request); a later command within 15 minutes of the ask folds it in, and the reply with it.
func TestALostFirstAskIsHealedByALaterCommandOnly(t *testing.T) {
	w := freshIssueLosingItsAsk(t)
	w.h.Fake.Advance(2 * time.Minute)
	w.h.Fake.ResetRequests()
	w.comment("maria", "Per API key.")
	if n := len(w.h.Fake.Requests()); n != 0 || w.botComments("CLR-42-001") != 0 || w.labels() != "" {
		t.Fatalf("a plain reply in an issue the app never saw: %d requests, %d comments naming the ask, labels %q; want none",
			n, w.botComments("CLR-42-001"), w.labels())
	}
	w.h.Fake.Advance(10 * time.Minute)
	w.comment("coder-agent", "/clarify")
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Errorf("after a later command: %q, want the lost ask mirrored and answered", got)
	}
}

// TestALostFirstAskStaysLostPastTheWindow: in a fresh issue, the ask's delivery is lost,
// and the next command comes more than 15 minutes later: the ask is not folded in (a first
// run does not replay an issue's older commands), and no sweep finds it (the issue carries
// no label of the app's). It has to be asked again.
func TestALostFirstAskStaysLostPastTheWindow(t *testing.T) {
	w := freshIssueLosingItsAsk(t)
	w.h.Fake.Advance(20 * time.Minute)
	w.comment("coder-agent", "/clarify")
	w.h.Fake.Advance(time.Hour)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := w.botComments("CLR-42-001"); n != 0 {
		t.Errorf("%d comments name the lost ask, want none: it stays lost", n)
	}
}

// TestADroppedFirstAskIsHealedFromTheDeliveryLog: in a fresh issue, the ask's delivery
// failed (GitHub logs it); a plain reply heals nothing, and the app's next look at the
// delivery log (at start and after every sweep) asks for the ask again, which folds in the
// reply with it.
func TestADroppedFirstAskIsHealedFromTheDeliveryLog(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	d, _ := w.h.Fake.Comment(repo, 42, "coder-agent", lostAsk)
	w.h.Drop(d)
	w.h.Fake.Advance(time.Minute)
	w.comment("maria", "Per API key.")
	if n := w.botComments("CLR-42-001"); n != 0 {
		t.Fatalf("%d comments name the ask before the redelivery, want none", n)
	}
	w.h.Fake.Advance(10 * time.Minute)
	if _, err := w.h.Redeliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Errorf("after the redelivery: %q, want the ask mirrored and answered", got)
	}
}
