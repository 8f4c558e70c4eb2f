package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

const postCommentRoute = "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"

// posts counts the app's attempts to post a comment since the request log was last reset.
func posts(w *driver) int {
	n := 0
	for _, r := range w.h.Fake.Requests() {
		if r.Route == postCommentRoute {
			n++
		}
	}
	return n
}

func TestAPostThatHappenedButWasAnswered502IsFoundByItsMarkerNotSentAgain(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	// The status comment, with the round above its table, is posted, but its answer is
	// lost: GitHub says 502.
	w.h.Fake.FailNextAfterApply(postCommentRoute, http.StatusBadGateway, 1)
	// The run itself must cope: no second run of the delivery to lean on.
	w.h.App.Scheduler.Retries = 0
	w.h.Fake.ResetRequests()
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	if n := w.botComments("Clarification needed"); n != 1 {
		t.Fatalf("round comment posted %d times, want once", n)
	}
	// The lost answer cost a look-up, not a second post nor a second run of the delivery.
	if n := posts(w); n != 1 {
		t.Errorf("%d posts, want 1 (the status comment, with the round)", n)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Errorf("status %s, want pending", c.Status)
	}
}

func TestAPostThatDidNotHappenButWasAnswered502IsSentAgainOnce(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.FailNext(postCommentRoute, http.StatusBadGateway, 1)
	w.h.App.Scheduler.Retries = 0
	w.h.Fake.ResetRequests()
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	if n := w.botComments("Clarification needed"); n != 1 {
		t.Fatalf("round comment posted %d times, want once", n)
	}
	if n := posts(w); n != 2 {
		t.Errorf("%d posts, want 2 (the status comment, with the round, twice)", n)
	}
}

func TestWhatWasAskedAndAnsweredWhileTheAppWasDownIsTakenWhenItIsBack(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	ctx := context.Background()
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	w.h.Stop()
	d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
	w.send(d) // GitHub logs it as failed, and never tries again by itself
	ask, _ := w.h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Burst size?")
	w.send(ask)
	w.h.Fake.Advance(10 * time.Minute)
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("status %s while the app was down", c.Status)
	}

	stats, err := w.h.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Asked != 2 {
		t.Errorf("asked GitHub for %d deliveries again, want the 2 it missed", stats.Asked)
	}
	l := w.ledger()
	if c, _ := l.Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Errorf("the answer given while the app was down: status %s, want answered", c.Status)
	}
	if c, ok := l.Find("CLR-42-002"); !ok || c.Status != clarify.Pending {
		t.Errorf("the ask made while the app was down: %+v, want a pending CLR-42-002", c)
	}
	if n := w.botComments("Clarification needed"); n != 2 {
		t.Errorf("%d round comments, want 2", n)
	}

	// The next check finds nothing left to ask for.
	w.h.Fake.Advance(time.Minute)
	if stats, err := w.h.Redeliver(ctx); err != nil || stats.Asked != 0 {
		t.Errorf("second check asked for %d (err %v), want 0", stats.Asked, err)
	}
}

func TestARunThatFailedForGoodIsRunAgainByTheNextSweep(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	ctx := context.Background()
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	if _, err := w.h.Sweep(ctx); err != nil { // a process's first sweep walks everything
		t.Fatal(err)
	}
	// Every attempt of every try of the answer's run fails at the status comment.
	w.h.Fake.FailNext("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", http.StatusBadGateway,
		ghtransport.DefaultRetryAttempts*(1+handlers.DefaultRunRetries))
	d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
	w.send(d)
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("status %s: the failed runs should have left the ledger as it was", c.Status)
	}

	w.h.Fake.Advance(time.Minute)
	stats, err := w.h.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Reconciled || stats.Due != 1 {
		t.Errorf("sweep: walked %v, %d due; want the failed issue run by the due pass, no walk", stats.Reconciled, stats.Due)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Errorf("status %s after the next sweep, want answered", c.Status)
	}
}
