package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/ghtransport"
)

// editCommentRoute is GitHub's route for editing an issue comment: the memory's parts and
// the status comments alike.
const editCommentRoute = "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}"

// waitingDecision settles "Cache scope" in #42, written into the memory at once, then
// "Upload retries" in #50 within the minute, which waits for the memory's next write.
func waitingDecision(w *driver) {
	w.t.Helper()
	settleOn(w, 42, "Cache scope", "Per user.")
	w.h.Fake.OpenIssue(repo, 50, "Retries", "maria")
	settleOn(w, 50, "Upload retries", "Three times.")
	if _, m := w.memory(); len(m.Decisions) != 1 {
		w.t.Fatalf("within the minute the memory holds %d decisions, want the first alone (the second waits)", len(m.Decisions))
	}
}

// hardRestart stops the process without its shutdown's write of what waits, as a crash
// would, and starts a fresh one against the same GitHub.
func hardRestart(w *driver) {
	w.t.Helper()
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		w.t.Fatal(err)
	}
}

// recordedOnce checks that the memory holds each of ids exactly once.
func recordedOnce(w *driver, ids ...string) {
	w.t.Helper()
	_, m := w.memory()
	for _, id := range ids {
		n := 0
		for _, d := range m.Decisions {
			if d.ID == id {
				n++
			}
		}
		if n != 1 {
			w.t.Errorf("the memory holds %s %d times, want once: %+v", id, n, m.Decisions)
		}
	}
}

// askRetriesAgain asks a question on "Upload retries" in a new issue and checks that the
// decision of #50 is offered.
func askRetriesAgain(w *driver) {
	w.t.Helper()
	w.h.Fake.OpenIssue(repo, 60, "Retries again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria How often do we retry uploads?\nTopic: Upload retries")
	if got := w.botText(60); !strings.Contains(got, "**Decided before** in CLR-50-001") {
		w.t.Errorf("the decision that waited when the process stopped was not offered:\n%s", got)
	}
}

// replayAll sends every delivery again and checks that the memory does not change.
func replayAll(w *driver) {
	w.t.Helper()
	_, before := w.memory()
	for _, d := range append(w.sent[:0:0], w.sent...) {
		w.send(d)
	}
	if _, err := w.h.Sweep(context.Background()); err != nil {
		w.t.Fatal(err)
	}
	if _, after := w.memory(); len(after.Decisions) != len(before.Decisions) {
		w.t.Errorf("replaying every delivery changed the memory from %d decisions to %d", len(before.Decisions), len(after.Decisions))
	}
}

// afterHardRestart stops the process hard and starts a fresh one, then checks that a
// question on "Upload retries" is offered #50's decision, that the memory holds each of ids
// once, and that replaying every delivery changes nothing.
func afterHardRestart(w *driver, ids ...string) {
	w.t.Helper()
	hardRestart(w)
	askRetriesAgain(w)
	recordedOnce(w, ids...)
	replayAll(w)
	recordedOnce(w, ids...)
}

// TestADecisionWaitingWhenTheProcessStopsHardReachesTheMemory: a process stopped without its
// shutdown's write right after a decision that waits for the memory; the next process
// records it, offers it to a later question on its topic, and records it once.
func TestADecisionWaitingWhenTheProcessStopsHardReachesTheMemory(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	waitingDecision(w)
	afterHardRestart(w, "CLR-42-001", "CLR-50-001")
}

// TestADecisionWhoseMemoryWriteFailedBeforeTheProcessStoppedReachesTheMemory: the sweep's
// write of a waiting decision is answered 502, then the process is gone; the next process
// records it.
func TestADecisionWhoseMemoryWriteFailedBeforeTheProcessStoppedReachesTheMemory(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	waitingDecision(w)
	w.h.Fake.Advance(time.Minute)
	// Every attempt of the sweep's write is answered 502.
	w.h.Fake.FailNext(editCommentRoute, http.StatusBadGateway, ghtransport.DefaultRetryAttempts)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, m := w.memory(); len(m.Decisions) != 1 {
		t.Fatalf("the memory holds %d decisions after its write was answered 502, want 1", len(m.Decisions))
	}
	afterHardRestart(w, "CLR-42-001", "CLR-50-001")
}

// TestAFirstDecisionWhoseMemoryCouldNotBeMadeIsNotLeftWaiting: the run that makes the
// repository's memory is answered 502 and runs again; its decision is written then, not
// left waiting behind the write that failed, so a process stopped hard next loses nothing.
func TestAFirstDecisionWhoseMemoryCouldNotBeMadeIsNotLeftWaiting(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.OpenIssue(repo, 50, "Retries", "maria")
	w.h.Fake.FailNext("POST /repos/{owner}/{repo}/issues", http.StatusBadGateway, 1)
	settleOn(w, 50, "Upload retries", "Three times.")
	afterHardRestart(w, "CLR-50-001")
}
