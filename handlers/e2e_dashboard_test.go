package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/handlers/appissues"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// dashboardWorld is a world whose repository has opted into the dashboard.
func dashboardWorld(t *testing.T) *driver {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "dashboard: true\n")
	return w
}

// minuteLater moves the clock a minute on and sweeps, as bot serve does every minute.
func (w *driver) minuteLater() {
	w.t.Helper()
	w.h.Fake.Advance(time.Minute)
	w.sweep()
}

// withADashboard is a dashboard world whose dashboard lists one question: it returns the
// dashboard's number.
func withADashboard(t *testing.T) (*driver, int) {
	w := dashboardWorld(t)
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.sweep()
	n, _ := w.dashboard()
	if n == 0 {
		t.Fatal("no dashboard after the first sweep")
	}
	return w, n
}

// dashboard returns the dashboard issue's number and body as the label names it.
func (w *driver) dashboard() (int, string) {
	w.t.Helper()
	_, desc, ok := w.h.Fake.RepoLabel(repo, appissues.DashboardLabel)
	if !ok {
		return 0, ""
	}
	var n int
	if _, err := fmt.Sscanf(desc[strings.LastIndex(desc, "#"):], "#%d", &n); err != nil {
		return 0, ""
	}
	return n, w.h.Fake.IssueBody(repo, n)
}

// dashboardWrites counts the edits of issue n (the dashboard) and the issues the app
// created (in these tests, only dashboards: no decision is settled in them).
func dashboardWrites(h interface{ Requests() []fakegithub.Request }, n int) (edits, creates int) {
	for _, r := range h.Requests() {
		switch {
		case r.Method == http.MethodPatch && r.Path == fmt.Sprintf("/repos/octo/widgets/issues/%d", n):
			edits++
		case r.Method == http.MethodPost && r.Path == "/repos/octo/widgets/issues":
			creates++
		}
	}
	return edits, creates
}

func TestTheDashboardListsWhatWaitsAndTheDecisions(t *testing.T) {
	w := dashboardWorld(t)
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Retries", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria How often should uploads be retried?\nTopic: Upload retries")
	w.comment("coder-agent", "/clarify @maria Which region serves Asia?\nTopic: Regions")
	w.comment("coder-agent", "/clarify escalate CLR-42-002 Nobody owns regions")
	if n, _ := w.dashboard(); n != 0 {
		t.Fatalf("the dashboard #%d was written before the sweep: runs only note what changed", n)
	}
	w.sweep()
	n, body := w.dashboard()
	if n == 0 {
		t.Fatal("no dashboard after the sweep")
	}
	for _, want := range []string{"### Escalated (1)", "[CLR-42-002](../issues/42) Regions · `coder-agent` waits on the maintainers",
		"### Open (1)", "[CLR-60-001](../issues/60) Upload retries · `coder-agent` waits on `maria`", "### Decisions in force (1)", "Per-user cache, keyed by tenant."} {
		if !strings.Contains(body, want) {
			t.Errorf("the dashboard lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "@") && !strings.Contains(body, "<!--") {
		t.Errorf("the dashboard @mentions someone:\n%s", body)
	}
	if strings.Contains(strings.Split(body, "<!-- clarify:dashboard")[0], "@") {
		t.Errorf("the dashboard's visible text has an @, which would notify:\n%s", body)
	}
	if w.h.Fake.IssueState(repo, n) != "open" {
		t.Errorf("the dashboard is %s, want open", w.h.Fake.IssueState(repo, n))
	}

	// An unchanged repository costs no edit.
	w.h.Fake.ResetRequests()
	w.minuteLater()
	if edits, creates := dashboardWrites(w.h.Fake, n); edits+creates != 0 {
		t.Errorf("a sweep with nothing new wrote the dashboard %d times", edits+creates)
	}

	// Answered, the question waits on its asker.
	w.commentOn(60, "maria", "Three times, backing off.")
	w.minuteLater()
	if _, body := w.dashboard(); !strings.Contains(body, "Upload retries · `maria` waits on `coder-agent`") {
		t.Errorf("after maria's answer the dashboard says:\n%s", body)
	}
}

func TestABurstOfTenEventsIsOneDashboardEdit(t *testing.T) {
	w, n := withADashboard(t)
	w.h.Fake.ResetRequests()
	for i := 0; i < 10; i++ {
		w.comment("coder-agent", fmt.Sprintf("/clarify @maria Question %d of the burst?", i))
	}
	w.minuteLater()
	edits, creates := dashboardWrites(w.h.Fake, n)
	t.Logf("10 events: %d dashboard edits, %d creations", edits, creates)
	if edits != 1 || creates != 0 {
		t.Errorf("%d edits and %d creations for a burst of ten, want one edit", edits, creates)
	}
	if _, body := w.dashboard(); !strings.Contains(body, "### Open (11)") {
		t.Errorf("the dashboard after the burst:\n%s", body)
	}
}

// TestDashboardWritesPerHourUnderABurst sends 100 events in a burst, then sweeps every
// minute for an hour. `go test ./handlers -run TestDashboardWritesPerHour -v` prints it.
func TestDashboardWritesPerHourUnderABurst(t *testing.T) {
	w := dashboardWorld(t)
	for i := 0; i < 100; i++ {
		n := 42
		if i%2 == 1 {
			n = 100 + i
			w.h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		}
		w.commentOn(n, "coder-agent", fmt.Sprintf("/clarify @maria Question %d?", i))
	}
	w.h.Fake.ResetRequests()
	w.sweep()
	n, _ := w.dashboard()
	for i := 0; i < 60; i++ {
		w.h.Fake.Advance(time.Minute)
		w.sweep()
	}
	edits, creates := dashboardWrites(w.h.Fake, n)
	// A creation is two writes: the issue, and its number in the label.
	t.Logf("100 events in a burst, then an hour of sweeps every minute: %d dashboard writes (%d creation of the issue and its label, %d edits as the clarifications went stale and escalated)", edits+2*creates, creates, edits)
	if creates != 1 || edits > 3 {
		t.Errorf("%d dashboard writes in an hour, want one per change of the repository", edits+creates)
	}
}

func TestADashboardClosedByAPersonStaysClosed(t *testing.T) {
	w, n := withADashboard(t)
	w.send(w.h.Fake.CloseIssue(repo, n, "maria"))
	w.h.Fake.ResetRequests()
	w.comment("coder-agent", "/clarify @maria And the burst size?")
	w.minuteLater()
	if edits, creates := dashboardWrites(w.h.Fake, n); edits+creates != 0 || w.h.Fake.IssueState(repo, n) != "closed" {
		t.Errorf("after maria closed the dashboard: %d edits, %d creations, state %s; want it left closed", edits, creates, w.h.Fake.IssueState(repo, n))
	}
	// Reopened by a person, it is written again.
	w.send(w.h.Fake.ReopenIssue(repo, n, "maria"))
	w.comment("coder-agent", "/clarify @maria And the window?")
	w.minuteLater()
	if _, body := w.dashboard(); !strings.Contains(body, "### Open (3)") {
		t.Errorf("the reopened dashboard was not brought up to date:\n%s", body)
	}
}

func TestADeletedDashboardIsRecreatedOnceNotInALoop(t *testing.T) {
	w, first := withADashboard(t)
	w.send(w.h.Fake.DeleteIssue(repo, first, "maria"))
	w.comment("coder-agent", "/clarify @maria And the burst size?")
	w.minuteLater()
	second, body := w.dashboard()
	if second == 0 || second == first || !strings.Contains(body, "### Open (2)") {
		t.Fatalf("after the deletion of #%d: dashboard #%d:\n%s", first, second, body)
	}
	w.send(w.h.Fake.DeleteIssue(repo, second, "maria"))
	before := len(w.h.Fake.Issues(repo))
	for i := 0; i < 3; i++ {
		w.comment("coder-agent", fmt.Sprintf("/clarify @maria And question %d?", i))
		w.h.Fake.Advance(time.Minute)
		w.sweep()
	}
	if after := len(w.h.Fake.Issues(repo)); after != before {
		t.Errorf("deleted twice, the dashboard came back: %d issues, want %d", after, before)
	}
}

func TestTheDashboardIsTrimmedUnderTheLimit(t *testing.T) {
	w := dashboardWorld(t)
	topic := strings.Repeat("a long topic that takes room ", 4)
	for i := 0; i < 300; i++ {
		n := 200 + i/10
		if i%10 == 0 {
			w.h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		}
		w.commentOn(n, "coder-agent", fmt.Sprintf("/clarify @maria Question %d?\nTopic: %s %d", i, topic, i))
	}
	w.sweep()
	_, body := w.dashboard()
	t.Logf("300 open clarifications: a dashboard of %d bytes", len(body))
	if len(body) > 60_000 || !strings.Contains(body, "more rows left out") {
		t.Errorf("a dashboard of %d bytes, want it trimmed under the limit with a line saying so; its end:\n%s", len(body), body[max(0, len(body)-2000):])
	}
	if _, err := render.DecodeDashboard(body, ledger.IssueLedgerKey(w.h.Config.LedgerKeyBytes(), "octo", "widgets", 0)); err != nil {
		t.Errorf("the trimmed dashboard's state does not read back: %v", err)
	}
}

// TestADashboardLabelWithoutItsMarkIsGivenIt: a label made before marks (or edited) names
// the dashboard by its number alone; the next flush, which proves the issue the app's by
// its signed body, gives the label the issue's mark, and keeps its "recreated" note.
func TestADashboardLabelWithoutItsMarkIsGivenIt(t *testing.T) {
	for name, note := range map[string]string{"plain": "", "recreated": " (recreated)"} {
		t.Run(name, func(t *testing.T) {
			w, n := withADashboard(t)
			_, marked, _ := w.h.Fake.RepoLabel(repo, appissues.DashboardLabel)
			if !strings.Contains(marked, " · mark ") {
				t.Fatalf("the label the app made: %q, want the issue's mark in it", marked)
			}
			w.h.Fake.SetLabel(repo, appissues.DashboardLabel, "ededed", fmt.Sprintf("Clarify's dashboard: issue #%d%s", n, note))
			w.comment("coder-agent", "/clarify @maria And the burst size?")
			w.minuteLater()
			if _, desc, _ := w.h.Fake.RepoLabel(repo, appissues.DashboardLabel); desc != marked+note {
				t.Errorf("the label after a flush: %q, want %q", desc, marked+note)
			}
			if m, body := w.dashboard(); m != n || !strings.Contains(body, "### Open (2)") {
				t.Errorf("dashboard #%d after the flush, want #%d brought up to date:\n%s", m, n, body)
			}
		})
	}
}
