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

// openPR opens pull request number with body and sends its pull_request.opened delivery.
func (w *driver) openPR(number int, body string) {
	w.t.Helper()
	if st := w.send(w.h.Fake.OpenPullRequestWithBody(repo, number, "Rate-limit per API key", "coder-agent", body)); st != http.StatusOK {
		w.t.Fatalf("pull_request.opened answered %d", st)
	}
}

// blockedPR opens pull request 7, which fixes #42, and asks in #42: the check fails.
func (w *driver) blockedPR(ask string) {
	w.t.Helper()
	w.openPR(7, "Fixes #42")
	w.comment("coder-agent", ask)
	if cr := w.check(7, 42); cr.Conclusion != "failure" {
		w.t.Fatalf("while it blocks: %+v", cr)
	}
}

// check returns the one check run named after issue on the head of pull request pr, or
// fails the test when there is not exactly one.
func (w *driver) check(pr, issue int) fakegithub.CheckRun {
	w.t.Helper()
	var found []fakegithub.CheckRun
	for _, cr := range w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, pr)) {
		if cr.Name == checks.CheckName(issue) {
			found = append(found, cr)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("%d check runs %q on the head of #%d, want 1: %+v", len(found), checks.CheckName(issue), pr, found)
	}
	return found[0]
}

func checkRequests(h interface{ Requests() []fakegithub.Request }) (pulls, checks int) {
	for _, r := range h.Requests() {
		switch r.Route {
		case fakegithub.RouteListPulls:
			pulls++
		case fakegithub.RouteCreateCheckRun, fakegithub.RouteUpdateCheckRun, fakegithub.RouteListCheckRuns:
			checks++
		}
	}
	return pulls, checks
}

func TestABlockingClarificationFailsTheLinkedPullRequestUntilResolved(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.openPR(7, "Rate-limit the public API.\n\nFixes #42")
	if runs := w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 7)); len(runs) != 0 {
		t.Fatalf("a pull request linking an issue with nothing open got check runs: %+v", runs)
	}

	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	cr := w.check(7, 42)
	if cr.Conclusion != "failure" || !strings.Contains(cr.Title, "CLR-42-001") || !strings.Contains(cr.Summary, "CLR-42-001") {
		t.Fatalf("while CLR-42-001 blocks: %+v", cr)
	}

	w.comment("maria", "Per API key.")
	if cr := w.check(7, 42); cr.Conclusion != "failure" {
		t.Errorf("an answer settles nothing, the check should still fail: %+v", cr)
	}

	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	if cr := w.check(7, 42); cr.Conclusion != "success" || strings.Contains(cr.Title, "CLR-42-001") {
		t.Fatalf("after the resolve: %+v", cr)
	}
	w.replayAll()
}

func TestAPullRequestOpenedWhileAClarificationBlocksFailsAtOnce(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	w.openPR(8, "Closes octo/widgets#42")
	if cr := w.check(8, 42); cr.Conclusion != "failure" || !strings.Contains(cr.Title, "CLR-42-001") {
		t.Fatalf("the new pull request's check: %+v", cr)
	}

	// A push moves the head: the new commit fails too.
	old := w.h.Fake.PullHead(repo, 8)
	w.send(w.h.Fake.PushToPullRequest(repo, 8, "coder-agent"))
	if w.h.Fake.PullHead(repo, 8) == old {
		t.Fatal("the push did not move the head")
	}
	if cr := w.check(8, 42); cr.Conclusion != "failure" {
		t.Fatalf("the pushed head's check: %+v", cr)
	}

	// The description no longer closes #42: its check passes.
	w.send(w.h.Fake.EditPullRequestBody(repo, 8, "coder-agent", "Refs #42 (does not close it)"))
	if cr := w.check(8, 42); cr.Conclusion != "success" {
		t.Fatalf("after the link was edited away: %+v", cr)
	}
	w.replayAll()
}

func TestANonBlockingClarificationFailsNothing(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.openPR(7, "Fixes #42")
	w.h.Fake.ResetRequests()
	w.comment("coder-agent", "/clarify @maria --non-blocking Should the limit apply per API key or per client IP?")
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	if runs := w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 7)); len(runs) != 0 {
		t.Errorf("a non-blocking clarification wrote check runs: %+v", runs)
	}
	if pulls, checks := checkRequests(w.h.Fake); pulls+checks != 0 {
		t.Errorf("a non-blocking lifecycle made %d pull request and %d check requests, want none", pulls, checks)
	}
}

func TestAPullRequestsOwnBlockingClarificationFailsItsCheck(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.openPR(9, "A refactoring that closes nothing.")
	d, _ := w.h.Fake.Comment(repo, 9, "coder-agent", "/clarify @maria Keep the old endpoint?")
	w.send(d)
	if cr := w.check(9, 9); cr.Conclusion != "failure" {
		t.Fatalf("the pull request's own check: %+v", cr)
	}
	d, _ = w.h.Fake.Comment(repo, 9, "maria", "/clarify resolve CLR-9-001 Keep it one release.")
	w.send(d)
	if cr := w.check(9, 9); cr.Conclusion != "success" {
		t.Fatalf("after the resolve: %+v", cr)
	}
}

// TestChecksCostOfALifecycleWithoutPullRequests measures what the checks add to one-round
// lifecycles in issues no pull request links: the first lists the repository's open pull
// requests once, and the answer, the resolve and the next issue's lifecycle list them no
// more. `go test ./handlers -run TestChecksCost -v` prints it.
func TestChecksCostOfALifecycleWithoutPullRequests(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.OpenIssue(repo, 43, "Cache the schema", "maria")
	w.h.Fake.ResetRequests()
	for _, n := range []int{42, 43} {
		id := fmt.Sprintf("CLR-%d-001", n)
		for _, c := range []struct{ author, body string }{
			{"coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?"},
			{"maria", "Per API key."},
			{"coder-agent", "/clarify resolve " + id + " Per API key."},
		} {
			d, _ := w.h.Fake.Comment(repo, n, c.author, c.body)
			w.send(d)
		}
		pulls, checks := checkRequests(w.h.Fake)
		t.Logf("checks add %d pull request lists to the lifecycles up to #%d, %d check requests", pulls, n, checks)
		if pulls > 1 || checks != 0 {
			t.Errorf("%d pull request lists and %d check requests up to #%d's lifecycle, want one list (the first ask's) and none", pulls, checks, n)
		}
	}
}

// TestAPullRequestOpenedAfterTheListingIsCheckedOnResolve: the ask listed no pull request
// linking #42; one opened since tells the app through its pull_request event, so the
// resolve lists them again and passes its check.
func TestAPullRequestOpenedAfterTheListingIsCheckedOnResolve(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	w.openPR(8, "Fixes #42")
	if cr := w.check(8, 42); cr.Conclusion != "failure" {
		t.Fatalf("the new pull request's check: %+v", cr)
	}
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	if cr := w.check(8, 42); cr.Conclusion != "success" {
		t.Fatalf("after the resolve: %+v", cr)
	}
}

// TestTheSweepSettlingAClarificationPassesTheCheck: a clarification that times out to its
// fallback on the sweep settles like a resolve, and the check follows.
func TestTheSweepSettlingAClarificationPassesTheCheck(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.blockedPR("/clarify @maria Per key or per IP?\nOptions:\na) per key\nb) per IP\nFallback: a")
	for i := 0; i < 2; i++ { // stale, then timed out to the fallback
		w.h.Fake.Advance(31 * time.Minute)
		if _, err := w.h.Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status.Open() {
		t.Fatalf("CLR-42-001 is still %s after two SLAs", c.Status)
	}
	if cr := w.check(7, 42); cr.Conclusion != "success" {
		t.Fatalf("after the sweep settled it: %+v", cr)
	}
}

// TestAPassingCheckThatFailedToWriteIsWrittenByTheNextSweep: the resolve that settles the
// issue cannot pass the pull request's check (GitHub answers 502); the issue has nothing
// more to change, yet the next sweep turns the check green.
func TestAPassingCheckThatFailedToWriteIsWrittenByTheNextSweep(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.blockedPR("/clarify @maria Per key or per IP?")
	// Every try of the transport (ghtransport.DefaultRetryAttempts) is answered 502.
	w.h.Fake.FailNext(fakegithub.RouteUpdateCheckRun, http.StatusBadGateway, ghtransport.DefaultRetryAttempts)
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status.Open() {
		t.Fatalf("CLR-42-001 is still %s after the resolve", c.Status)
	}
	after := w.check(7, 42).Conclusion

	w.h.Fake.Advance(time.Minute)
	stats, err := w.h.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the check after the resolve whose update got a 502: %s; after the next sweep (%+v): %s", after, stats, w.check(7, 42).Conclusion)
	if after != "failure" {
		t.Fatalf("the injected 502 did not hit the check's update: %s", after)
	}
	if cr := w.check(7, 42); cr.Conclusion != "success" {
		t.Fatalf("the next sweep left the check of a settled issue red: %+v", cr)
	}

	// Once written, the issue is not run again for it.
	w.h.Fake.Advance(time.Minute)
	pulls, _ := checkRequests(w.h.Fake)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if again, _ := checkRequests(w.h.Fake); again != pulls {
		t.Errorf("a sweep after the check was written listed pull requests again (%d, then %d)", pulls, again)
	}
}

// TestAPassingCheckDeferredNearTheLimitsIsWrittenByTheNextSweep: the resolve that settles
// the issue comes with the installation's minute of writes nearly spent, so the passing
// update (the lowest of the app's writes) is deferred; the next sweep writes it.
func TestAPassingCheckDeferredNearTheLimitsIsWrittenByTheNextSweep(t *testing.T) {
	const minute = 3 * time.Second // the pacer's minute, of real time
	w := &driver{t: t, h: newHarnessWith(t, func(c *app.Config) {
		c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour, c.PaceMinute = 20, -1, minute
	})}
	w.blockedPR("/clarify @maria Per key or per IP?")
	// Issues of their own numbers, clear of the pull request (#7) and #42.
	for n := 100; len(writes(w.h)) < 16; n++ {
		w.h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		d, _ := w.h.Fake.Comment(repo, n, "coder-agent", "/clarify @maria Which way?")
		w.send(d)
	}
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key.")
	after := w.check(7, 42).Conclusion
	spent := len(writes(w.h))

	time.Sleep(minute) // the minute's writes are behind it
	w.h.Fake.Advance(time.Minute)
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("writes spent in the minute: %d of 20; the check after the resolve: %s; after the next sweep: %s",
		spent, after, w.check(7, 42).Conclusion)
	if after != "failure" {
		t.Fatalf("the passing update was not deferred: %s", after)
	}
	if cr := w.check(7, 42); cr.Conclusion != "success" {
		t.Fatalf("the next sweep left the check of a settled issue red: %+v", cr)
	}
}
