package handlers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/sweep"
)

// The sweep visits what its deadline index says is due, and walks the installations every
// sweep.DefaultReconcileEvery (and on a process's first sweep) for what the index cannot
// know. These tests pin which of the two finds what.

// sweep runs one sweep and fails the test on an error.
func (w *driver) sweep() sweep.Stats {
	w.t.Helper()
	st, err := w.h.Sweep(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return st
}

// entry returns the index's entry for issue n of octo/widgets, if any.
// forgetEntry takes issue n out of the deadline index, as a cache emptied under the
// process would have it.
func (w *driver) forgetEntry(n int) {
	w.t.Helper()
	if e, ok := w.entry(n); ok {
		if err := w.h.App.Sweep.Index().Remove(context.Background(), e); err != nil {
			w.t.Fatal(err)
		}
	}
}

func (w *driver) entry(n int) (handlers.IndexEntry, bool) {
	w.t.Helper()
	es, err := w.h.App.Sweep.Index().Repo(context.Background(), 1, "octo", "widgets")
	if err != nil {
		w.t.Fatal(err)
	}
	for _, e := range es {
		if e.Number == n {
			return e, true
		}
	}
	return handlers.IndexEntry{}, false
}

func TestARunKeepsTheIssuesIndexEntry(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	asked := w.h.Fake.Now()
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	e, ok := w.entry(42)
	if !ok {
		t.Fatal("no index entry after the ask")
	}
	if !e.Due.Equal(asked.Add(clarify.DefaultSLA)) || e.Installation != 1 {
		t.Errorf("entry %+v, want installation 1 due at %v", e, asked.Add(clarify.DefaultSLA))
	}
	if len(e.Waits) != 1 || e.Waits[0].ID != "CLR-42-001" {
		t.Errorf("entry waits %+v, want the blocking question's edge", e.Waits)
	}
	w.h.Fake.Advance(31 * time.Minute)
	w.sweep()
	if e, _ := w.entry(42); !e.Due.Equal(w.h.Fake.Now().Add(clarify.DefaultSLA)) {
		t.Errorf("once stale the entry is due at %v, want one SLA on, %v", e.Due, w.h.Fake.Now().Add(clarify.DefaultSLA))
	}
	w.comment("maria", "Per key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key.")
	if e, ok := w.entry(42); ok {
		t.Errorf("nothing is open, yet the index keeps %+v", e)
	}
}

// Issue 9: a one-minute SLA holds between walks: the issue goes stale on the first sweep
// after its deadline, from the index, and times out on the first sweep after the second;
// escalated, it is never due again.
func TestAOneMinuteSLAHoldsBetweenWalks(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "sla: 1m\n")
	w.sweep() // a new process's first sweep walks; the next walk is 15 minutes away
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	w.h.Fake.Advance(30 * time.Second)
	if st := w.sweep(); st.Issues != 0 || st.Requests != 0 {
		t.Errorf("a sweep before the deadline: %+v, want no visit and no request", st)
	}
	w.h.Fake.Advance(30 * time.Second)
	st := w.sweep()
	if st.Reconciled || st.Due != 1 {
		t.Errorf("the sweep at the deadline: %+v, want one due visit and no walk", st)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
		t.Fatalf("at the deadline: %s, want stale", c.Status)
	}
	if n := w.botComments("Still waiting"); n != 1 {
		t.Errorf("%d stale pings, want 1", n)
	}
	w.h.Fake.Advance(time.Minute)
	if st := w.sweep(); st.Reconciled || st.Due != 1 {
		t.Errorf("the sweep at the second deadline: %+v, want one due visit and no walk", st)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Escalated {
		t.Errorf("a minute after going stale: %s, want escalated", c.Status)
	}
	// Escalated, it waits on people: its entry has no deadline, and no sweep visits it.
	if e, ok := w.entry(42); !ok || !e.Due.IsZero() {
		t.Errorf("escalated: entry %+v (kept %v), want one without a deadline", e, ok)
	}
	w.h.Fake.Advance(time.Minute)
	if st := w.sweep(); st.Reconciled || st.Due != 0 || st.Requests != 0 {
		t.Errorf("the sweep after the escalation: %+v, want no visit and no request", st)
	}
}

func TestTheWalkFindsWhatTheIndexDoesNotKnow(t *testing.T) {
	t.Run("anIssueLabelledByHand", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.sweep()
		labelByHand(t, w, 42, "clarification:active")
		w.h.Fake.Advance(time.Minute)
		if st := w.sweep(); st.Issues != 0 || !issueHasLabel(w, 42, "clarification:active") {
			t.Fatalf("a sweep with no walk: %+v, labels %q; the label is the walk's to find", st, w.labels())
		}
		w.h.Fake.Advance(sweep.DefaultReconcileEvery)
		st := w.sweep()
		if !st.Reconciled || st.Found != 1 {
			t.Errorf("the walk: %+v, want #42 found", st)
		}
		if issueHasLabel(w, 42, "clarification:active") {
			t.Errorf("labels %q: the walk left the active label on an issue with nothing open", w.labels())
		}
	})
	t.Run("anIssueTheIndexLost", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.comment("coder-agent", "/clarify @maria Per key or per IP?")
		w.sweep()
		w.forgetEntry(42) // a cache emptied under the process
		w.h.Fake.Advance(31 * time.Minute)
		st := w.sweep()
		if st.Due != 0 || st.Found != 1 {
			t.Errorf("sweep %+v: want #42 found by the walk, since the index forgot it", st)
		}
		if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
			t.Errorf("%s, want stale", c.Status)
		}
		if _, ok := w.entry(42); !ok {
			t.Error("the walk's visit did not put the issue back in the index")
		}
	})
	t.Run("anEventThatNeverRan", func(t *testing.T) {
		w := &driver{t: t, h: newHarness(t)}
		w.comment("coder-agent", "/clarify @maria Per key or per IP?")
		w.h.Fake.Advance(2 * time.Minute)
		w.sweep()
		// maria's answer is never run: its delivery is lost (or its run failed for good),
		// and the issue is not due for another half hour.
		d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
		w.h.Drop(d)
		w.h.Fake.Advance(sweep.DefaultReconcileEvery)
		if st := w.sweep(); !st.Reconciled || st.Found != 1 {
			t.Errorf("the walk: %+v, want #42 read again, since it changed after its last save", st)
		}
		if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
			t.Errorf("%s after the walk, want answered", c.Status)
		}
		w.h.Fake.Advance(sweep.DefaultReconcileEvery)
		if st := w.sweep(); !st.Reconciled || st.Found != 0 {
			t.Errorf("the next walk: %+v, want nothing found: nothing changed since", st)
		}
	})
}

// A deadlock formed between walks is broken by the next sweep, from the index's edges.
func TestADeadlockIsBrokenWithoutWaitingForAWalk(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.AddUser("arch", "User")
	w.h.Fake.SetPermission(repo, "arch", "write")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "roles:\n  engineer: [coder-agent]\n  architect: [arch]\nescalation:\n  mention: [maria]\n")
	w.h.Fake.OpenIssue(repo, 43, "Version the API", "maria")
	w.sweep()
	w.comment("coder-agent", "/clarify @architect Can the API be split before it is versioned?")
	w.commentOn(43, "arch", "/clarify @engineer Can the API be versioned before it is split?")
	w.h.Fake.Advance(time.Minute)
	st := w.sweep()
	if st.Reconciled || st.Breaks != 1 {
		t.Errorf("sweep %+v: want one break and no walk", st)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Escalated {
		t.Errorf("CLR-42-001 is %s, want escalated (the engineer is the lower priority)", c.Status)
	}
	if c, _ := w.ledgerOn(43).Find("CLR-43-001"); c.Status != clarify.Pending {
		t.Errorf("CLR-43-001 is %s, want pending", c.Status)
	}
	if n := w.botComments("deadlock"); n != 1 {
		t.Errorf("%d comments name the deadlock, want 1", n)
	}
	w.h.Fake.Advance(time.Minute)
	if st := w.sweep(); st.Breaks != 0 || st.Requests != 0 {
		t.Errorf("the sweep after the break: %+v, want nothing to do", st)
	}
	if !strings.Contains(w.labels(), "clarification:escalated") {
		t.Errorf("labels %q lack clarification:escalated", w.labels())
	}
}
