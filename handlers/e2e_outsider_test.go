package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/handlers/checks"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// An outsider (no write access) opens a pull request from a fork that closes ten issues
// holding blocking clarifications, and pushes and edits it a dozen times: issue 17's
// finding 2. What it costs the installation, and whether an ask elsewhere waits for it.

// blockTen opens issues #1 to #10, each with a blocking clarification.
func blockTen(t *testing.T, h interface {
	OpenIssue(string, int, string, string) fakegithub.Delivery
	Comment(string, int, string, string) (fakegithub.Delivery, int64)
}, send func(fakegithub.Delivery) int) string {
	t.Helper()
	var body strings.Builder
	body.WriteString("A drive-by change.\n\n")
	for n := 1; n <= 10; n++ {
		h.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		d, _ := h.Comment(repo, n, "coder-agent", "/clarify @maria Which way?")
		if st := send(d); st != http.StatusOK {
			t.Fatalf("ask in #%d answered %d", n, st)
		}
		fmt.Fprintf(&body, "fixes #%d\n", n)
	}
	return body.String()
}

// outsiderPlays sends the outsider's 13 events: the opening, then pushes and edits in turn.
func outsiderPlays(w *driver, body string) {
	w.openPRWith(50, "drive-by", body, fakegithub.PullOptions{Fork: true})
	for i := range 12 {
		if i%2 == 0 {
			w.send(w.h.Fake.PushToPullRequest(repo, 50, "drive-by"))
			continue
		}
		w.send(w.h.Fake.EditPullRequestBody(repo, 50, "drive-by", fmt.Sprintf("%s\nEdit %d.", body, i)))
	}
}

func TestAnOutsidersForkPullRequestCostsLittleAndDelaysNoClarification(t *testing.T) {
	// Default pacing (80 writes a minute, 500 an hour), as serve runs.
	w := &driver{t: t, h: newHarnessWith(t, func(c *app.Config) { c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour = 0, 0 })}
	body := blockTen(t, w.h.Fake, w.send)
	// A fresh process, which knows nothing of the ten issues yet: the dearest case.
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}

	w.h.Fake.ResetRequests()
	outsiderPlays(w, body)
	requests, written := len(w.h.Fake.Requests()), len(writes(w.h))
	var failing []string
	for _, cr := range w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 50)) {
		if cr.Conclusion == "failure" {
			failing = append(failing, cr.Name+": "+cr.Title)
		}
	}

	// Thirteen more of the outsider's events, sent at once as GitHub would, and an ask in
	// #42 right behind them: how long until its round is mirrored.
	for i := range 13 {
		d := w.h.Fake.PushToPullRequest(repo, 50, "drive-by")
		if i%2 == 1 {
			d = w.h.Fake.EditPullRequestBody(repo, 50, "drive-by", fmt.Sprintf("%s\nAgain %d.", body, i))
		}
		if _, err := fakegithub.Send(context.Background(), nil, w.h.HookURL(), w.h.Secret, d); err != nil {
			t.Fatal(err)
		}
	}
	ask, _ := w.h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Per API key or per client IP?")
	start := time.Now()
	if _, err := fakegithub.Send(context.Background(), nil, w.h.HookURL(), w.h.Secret, ask); err != nil {
		t.Fatal(err)
	}
	for w.botComments("CLR-42-001") == 0 && time.Since(start) < 2*time.Minute {
		time.Sleep(time.Millisecond)
	}
	delay := time.Since(start)
	w.h.App.Scheduler.Wait()

	t.Logf("outsider's fork pull request linking 10 blocked issues, 13 events in a fresh process: %d requests, %d writes (before this change: 461 and 70); "+
		"an ask in #42 right behind 13 more was mirrored in %v (before: not within 2 minutes); the head's failing checks: %q",
		requests, written, delay.Round(time.Millisecond), failing)
	if w.botComments("CLR-42-001") == 0 {
		t.Fatal("the ask in #42 was not mirrored")
	}
	if requests > 80 || written > 20 {
		t.Errorf("the outsider's 13 events cost %d requests and %d writes, want at most 80 and 20", requests, written)
	}
	if len(failing) != 1 || !strings.Contains(failing[0], "10 issues") {
		t.Errorf("the outsider's head should carry one failing check naming the ten blocked issues: %q", failing)
	}
}

// TestACollaboratorsPullRequestStillFailsAtOnce is the guard: the bounds on outsiders
// leave a collaborator's pull request its failing check of each blocked issue at once.
func TestACollaboratorsPullRequestStillFailsAtOnce(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	body := blockTen(t, w.h.Fake, w.send)
	w.openPRWith(51, "maria", body, fakegithub.PullOptions{})
	for _, n := range []int{1, 10} {
		if cr := w.check(51, n); cr.Conclusion != "failure" {
			t.Errorf("the collaborator's pull request: %s = %+v", checks.CheckName(n), cr)
		}
	}
}

// TestAnOutsidersCheckPassesOnceItsIssuesSettle: the one check of an outsider's pull
// request follows its issues: settling the last blocked one passes it.
func TestAnOutsidersCheckPassesOnceItsIssuesSettle(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.OpenIssue(repo, 1, "One", "maria")
	d, _ := w.h.Fake.Comment(repo, 1, "coder-agent", "/clarify @maria Which way?")
	w.send(d)
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	w.openPRWith(50, "drive-by", "fixes #1, fixes #42", fakegithub.PullOptions{Fork: true})
	check := func() fakegithub.CheckRun {
		t.Helper()
		for _, cr := range w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 50)) {
			if cr.Name == checks.LinksCheckName(50) {
				return cr
			}
		}
		t.Fatalf("no check %q on the outsider's head", checks.LinksCheckName(50))
		return fakegithub.CheckRun{}
	}
	if cr := check(); cr.Conclusion != "failure" || !strings.Contains(cr.Title, "#1, #42") {
		t.Fatalf("while #1 and #42 are blocked: %+v", cr)
	}
	d, _ = w.h.Fake.Comment(repo, 1, "coder-agent", "/clarify resolve CLR-1-001 This way.")
	w.send(d)
	if cr := check(); cr.Conclusion != "failure" || strings.Contains(cr.Summary, "CLR-1-001") {
		t.Fatalf("with #42 still blocked: %+v", cr)
	}
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	if cr := check(); cr.Conclusion != "success" {
		t.Fatalf("once both settled: %+v", cr)
	}
	if runs := w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 50)); len(runs) != 1 {
		t.Errorf("an outsider's pull request got %d check runs, want its one: %+v", len(runs), runs)
	}
}

// TestAForkPullRequestIsAnInsidersOnlyWithWriteAccess: GitHub calls a triage collaborator
// a COLLABORATOR, but commands hold no one without write access an insider, and neither do
// checks: that collaborator's fork pull request gets the one check for all its links, and
// a fork pull request of a collaborator with write access a failing check per issue.
func TestAForkPullRequestIsAnInsidersOnlyWithWriteAccess(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	body := blockTen(t, w.h.Fake, w.send)
	w.h.Fake.AddUser("tri", "User")
	w.h.Fake.SetPermission(repo, "tri", "triage")
	w.h.Fake.AddUser("wri", "User")
	w.h.Fake.SetPermission(repo, "wri", "write")
	w.openPRWith(52, "tri", body, fakegithub.PullOptions{Fork: true})
	w.openPRWith(53, "wri", body, fakegithub.PullOptions{Fork: true})
	names := func(pr int) (out []string) {
		for _, cr := range w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, pr)) {
			out = append(out, cr.Name+" "+cr.Conclusion)
		}
		return out
	}
	t.Logf("the triage collaborator's fork pull request: %q; the write collaborator's: %d check runs", names(52), len(names(53)))
	if got := names(52); len(got) != 1 || got[0] != checks.LinksCheckName(52)+" failure" {
		t.Errorf("a triage collaborator's fork pull request got %q, want the one failing check of an outsider's", got)
	}
	if cr := w.check(53, 1); cr.Conclusion != "failure" {
		t.Errorf("a write collaborator's fork pull request: %s = %+v", checks.CheckName(1), cr)
	}

	// Fails closed: when the permission cannot be read, the fork is an outsider's.
	w.h.Fake.AddUser("wri2", "User")
	w.h.Fake.SetPermission(repo, "wri2", "write")
	w.h.Fake.FailNext("GET /repos/{owner}/{repo}/collaborators/{username}/permission", http.StatusInternalServerError, ghtransport.DefaultRetryAttempts)
	w.openPRWith(54, "wri2", body, fakegithub.PullOptions{Fork: true})
	if got := names(54); len(got) != 1 || got[0] != checks.LinksCheckName(54)+" failure" {
		t.Errorf("a fork pull request whose author's permission could not be read got %q, want the outsider's one check", got)
	}
}
