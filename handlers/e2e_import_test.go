package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/render"
)

// An operator exports an issue's ledger to an AgentX file, imports it back with
// `bot ledger import -status` and pastes the signed body over the app's status comment
// (issue 17's finding 4). What the file says must never make the issue ignore new commands
// or hand out an id again.

// importedStatus is the status body `bot ledger import -status` prints for the issue's
// ledger exported to an AgentX file, after tamper has changed what the file says.
func (w *driver) importedStatus(tamper func(*clarify.Ledger)) string {
	w.t.Helper()
	data, err := agentx.Marshal(agentx.FromLedger(w.ledger(), repo))
	if err != nil {
		w.t.Fatal(err)
	}
	f, _, err := agentx.Parse(data)
	if err != nil {
		w.t.Fatal(err)
	}
	l, err := agentx.ToLedger(f)
	if err != nil {
		w.t.Fatal(err)
	}
	if tamper != nil {
		tamper(&l)
	}
	l.Head, l.Archives = "", nil // as import -status leaves them
	block, err := render.EncodeLedger(l, issueKey(w.h))
	if err != nil {
		w.t.Fatal(err)
	}
	return render.Status(l, block)
}

// paste has maria put body over the status comment, as an operator would.
func (w *driver) paste(body string) {
	w.t.Helper()
	id, _ := w.statusComment()
	if st := w.send(w.h.Fake.EditComment(repo, id, "maria", body)); st != http.StatusOK {
		w.t.Fatalf("the paste's delivery answered %d", st)
	}
}

// ids lists the ledger's clarification ids and statuses.
func (w *driver) ids() string {
	var out []string
	for _, c := range w.ledger().Clarifications {
		out = append(out, c.ID+":"+string(c.Status))
	}
	return strings.Join(out, " ")
}

func TestAPastedImportNeverSilencesAnIssueOrReusesAnId(t *testing.T) {
	for name, tc := range map[string]struct {
		asks   int
		tamper func(*clarify.Ledger)
		want   string
	}{
		// The issue's file: a cursor far past every comment and a high revision.
		"cursorPastEveryComment": {1, func(l *clarify.Ledger) { l.Cursor, l.Rev = 9e18, 1e6 },
			"CLR-42-001:pending CLR-42-002:pending"},
		// Its sequence reset, its clarifications left out: the next id must not be one
		// the issue already shows.
		"sequenceBelowTheIssuesIds": {2, func(l *clarify.Ledger) { l.Seq, l.Clarifications = 0, nil },
			"CLR-42-001:pending CLR-42-002:pending CLR-42-003:pending"},
	} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			for i := range tc.asks {
				w.comment("coder-agent", "/clarify @maria Question "+string(rune('A'+i))+"?")
			}
			w.paste(w.importedStatus(tc.tamper))
			w.comment("coder-agent", "/clarify @maria A later question?")
			got := w.ids()
			t.Logf("after the pasted import, a later ask: ledger %q (before the fix: the ask ignored, no reply; or an id handed out again)", got)
			if got != tc.want {
				t.Fatalf("ledger after the paste and a later ask: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAnIssuesOwnLedgerExportedImportedAndPastedStaysTrusted is the guard: pasting the
// issue's own ledger back, through export and import, is taken as it is, with no rebuild.
func TestAnIssuesOwnLedgerExportedImportedAndPastedStaysTrusted(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	w.comment("coder-agent", "/clarify @maria And the burst size?")
	w.paste(w.importedStatus(nil))
	w.comment("coder-agent", "/clarify @maria A later question?")
	if got := w.ids(); got != "CLR-42-001:pending CLR-42-002:pending CLR-42-003:pending" {
		t.Fatalf("ledger after pasting its own import and a later ask: %q", got)
	}
	if n := w.botComments(`"kind":"rebuilt"`); n != 0 {
		t.Errorf("the issue's own ledger, pasted back, was rebuilt (%d rebuild notices)", n)
	}
}

// TestDeletingTheLastAppliedCommentUndoesNothing: the answer the ledger's cursor stands on
// is deleted, and a fresh process (which reads the whole issue) then runs it. The ledger
// is the app's own and is kept: the clarification stays answered, its round is not posted
// again, nobody is told the status comment was changed by hand, and a later ask is taken.
func TestDeletingTheLastAppliedCommentUndoesNothing(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	answer := w.comment("maria", "Per key.")
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Fatalf("before the deletion: %q", got)
	}
	rounds, notices := w.botComments("Clarification needed"), w.botComments("by hand")
	w.h.Fake.DeleteComment(repo, answer, "maria")
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The sweep's walk runs the issue with no newer comment: the cursor stands past the
	// newest one.
	w.h.Fake.Advance(20 * time.Minute)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := w.ids(); got != "CLR-42-001:answered" {
		t.Errorf("after the answer was deleted and a sweep: %q, want it still answered", got)
	}
	w.comment("coder-agent", "/clarify @maria And the burst size?")
	if got := w.ids(); got != "CLR-42-001:answered CLR-42-002:pending" {
		t.Errorf("after the answer was deleted and a later ask: %q, want the answer kept and the ask taken", got)
	}
	if n := w.botComments("Clarification needed"); n != rounds+1 {
		t.Errorf("%d round comments, want %d: only the new ask's", n, rounds+1)
	}
	if n := w.botComments("by hand"); n != notices {
		t.Errorf("a notice that the status comment was changed by hand was posted")
	}
}
