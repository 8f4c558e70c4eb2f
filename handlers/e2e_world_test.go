package handlers_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// The e2e_*_test.go files drive the handlers from outside, as GitHub does: signed
// deliveries over HTTP to the app internal/app assembles, against the in-memory GitHub,
// through internal/replay's harness.

const repo = "octo/widgets"

// newHarness starts a world with issue #42 of octo/widgets, opened by maria (write
// access), a bot account coder-agent that asks, and drive-by (read access).
func newHarness(t *testing.T) *replay.Harness { return newHarnessWith(t, nil) }

// newHarnessWith is newHarness with the app's config changed by tune.
func newHarnessWith(t *testing.T, tune func(*app.Config)) *replay.Harness {
	t.Helper()
	var logs io.Writer = io.Discard
	if testing.Verbose() {
		logs = os.Stderr
	}
	return newHarnessLogging(t, logs, tune)
}

// newHarnessLogging is newHarnessWith with the app's log written to logs.
func newHarnessLogging(t *testing.T, logs io.Writer, tune func(*app.Config)) *replay.Harness {
	t.Helper()
	h, err := replay.NewHarnessWith(logs, tune)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.AddUser("drive-by", "User")
	h.Fake.SetPermission(repo, "drive-by", "read")
	h.Fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	return h
}

// driver plays a test's deliveries into the harness's world and records every one sent,
// so a test can send them all again.
type driver struct {
	t    *testing.T
	h    *replay.Harness
	sent []fakegithub.Delivery
}

func (w *driver) send(d fakegithub.Delivery) int {
	w.t.Helper()
	st, err := w.h.Deliver(context.Background(), d)
	if err != nil {
		w.t.Fatal(err)
	}
	w.sent = append(w.sent, d)
	return st
}

func (w *driver) comment(author, body string) int64 {
	w.t.Helper()
	d, id := w.h.Fake.Comment(repo, 42, author, body)
	if st := w.send(d); st != http.StatusOK {
		w.t.Fatalf("delivery of %s's comment answered %d, want 200", author, st)
	}
	return id
}

// ledger reads the ledger from the app's status comment, as the app does, and insists
// there is exactly one status comment.
func (w *driver) ledger() clarify.Ledger {
	w.t.Helper()
	var found []fakegithub.Comment
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("want exactly one status comment, found %d", len(found))
	}
	l, err := render.DecodeLedger(found[0].Body, issueKey(w.h))
	if err != nil {
		w.t.Fatal(err)
	}
	return l
}

// statusComment returns the id and body of the app's status comment.
func (w *driver) statusComment() (int64, string) {
	w.t.Helper()
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			return c.ID, c.Body
		}
	}
	w.t.Fatal("no status comment")
	return 0, ""
}

func (w *driver) botComments(contains string) int {
	n := 0
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, contains) {
			n++
		}
	}
	return n
}

func (w *driver) labels() string { return strings.Join(w.h.Fake.IssueLabels(repo, 42), ",") }

// replayAll sends every delivery again with the same delivery ids and asserts that
// nothing in the in-memory GitHub changed: GitHub redelivers with the same id.
func (w *driver) replayAll() {
	w.t.Helper()
	before := w.h.Fake.Fingerprint()
	for _, d := range append([]fakegithub.Delivery(nil), w.sent...) {
		w.send(d)
	}
	if after := w.h.Fake.Fingerprint(); after != before {
		w.t.Errorf("replaying every delivery changed the issue:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// noUnhandledRequests asserts that the app called only routes the in-memory GitHub serves.
func (w *driver) noUnhandledRequests() {
	w.t.Helper()
	for _, r := range w.h.Fake.Requests() {
		if r.Unhandled {
			w.t.Errorf("the app called a route the in-memory GitHub does not serve: %s %s", r.Method, r.Path)
		}
	}
}

// writes lists the app's writes since the request log was last reset.
func writes(h *replay.Harness) []string {
	var out []string
	for _, r := range h.Fake.Requests() {
		if r.Method != http.MethodGet && !strings.Contains(r.Route, "access_tokens") {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// issueKey is the key the ledger of #42 is signed with.
func issueKey(h *replay.Harness) []byte {
	return ledger.IssueLedgerKey(h.Config.LedgerKeyBytes(), "octo", "widgets", 42)
}
