package handlers_test

import (
	"context"
	"testing"
	"time"
)

// TestARunThatFindsNothingToChangeWritesNothing sends an ask and an answer, then sends both
// deliveries again: to the same process, and to a fresh one that remembers nothing (a
// restart, or a replica that never saw them). Neither run has anything to change, so
// neither writes: no label request, no edit, no comment.
func TestARunThatFindsNothingToChangeWritesNothing(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.Advance(time.Minute)
	w.comment("maria", "Per key.")
	w.h.Fake.Advance(time.Minute)

	w.h.Fake.ResetRequests()
	w.replayAll()
	if ws := writes(w.h); len(ws) != 0 {
		t.Errorf("deliveries sent again to the same process wrote %v", ws)
	}

	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.h.Fake.ResetRequests()
	w.replayAll()
	if ws := writes(w.h); len(ws) != 0 {
		t.Errorf("deliveries sent again to a fresh process wrote %v", ws)
	}
}
