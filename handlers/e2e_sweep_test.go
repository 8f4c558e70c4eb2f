package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/replay"
)

// sweepWorld: two installations, three repositories, an open clarification in each of
// five issues, and one quiet issue.
func sweepWorld(t *testing.T) (*replay.Harness, []string) {
	t.Helper()
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", "octo/widgets", "octo/gadgets")
	h.Fake.AddInstallation(2, "acme", "acme/app")
	h.Fake.AddUser("coder-agent", "Bot")
	var issues []string
	n := 0
	for _, repo := range []string{"octo/widgets", "octo/gadgets", "acme/app"} {
		h.Fake.AddUser("maria", "User")
		h.Fake.SetPermission(repo, "maria", "write")
		for i := 1; i <= 2; i++ {
			n++
			if n == 6 {
				h.Fake.OpenIssue(repo, i, "quiet", "maria")
				continue
			}
			h.Fake.OpenIssue(repo, i, fmt.Sprintf("issue %d", i), "maria")
			d, _ := h.Fake.Comment(repo, i, "coder-agent", fmt.Sprintf("/clarify @maria Question %d?", n))
			if _, err := h.Deliver(context.Background(), d); err != nil {
				t.Fatal(err)
			}
			issues = append(issues, fmt.Sprintf("%s#%d", repo, i))
		}
	}
	return h, issues
}

func countBy(h *replay.Harness) (reads, writes int, byRoute map[string]int) {
	byRoute = map[string]int{}
	for _, r := range h.Fake.Requests() {
		if strings.Contains(r.Route, "access_tokens") {
			continue
		}
		byRoute[r.Route]++
		if r.Method == http.MethodGet {
			reads++
		} else {
			writes++
		}
	}
	return reads, writes, byRoute
}

func TestSweepOverInstallationsCountsItsRequests(t *testing.T) {
	h, issues := sweepWorld(t)
	h.Fake.Advance(31 * time.Minute)
	h.Fake.ResetRequests()

	stats, err := h.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stats.Installations != 2 || stats.Repos != 3 || stats.Issues != 5 || stats.Stopped != 0 {
		t.Errorf("stats %+v, want 2 installations, 3 repositories, 5 issues", stats)
	}
	for _, key := range issues {
		repo, num, _ := strings.Cut(key, "#")
		var n int
		fmt.Sscan(num, &n)
		l, err := h.Ledger(repo, n)
		if err != nil {
			t.Fatal(err)
		}
		if l.Clarifications[0].Status != clarify.Stale {
			t.Errorf("%s: %s, want stale", key, l.Clarifications[0].Status)
		}
	}
	reads, writes, by := countBy(h)
	t.Logf("first sweep: %d reads, %d writes: %v", reads, writes, by)
	want := map[string]int{
		"GET /app/installations":                                        1,
		"GET /installation/repositories":                                2,  // one page per installation
		"GET /repos/{owner}/{repo}/issues":                              3,  // one page per repository
		"GET /repos/{owner}/{repo}/issues/{issue_number}/comments":      10, // one page per active issue, and the twin check after each ping
		"POST /repos/{owner}/{repo}/issues/{issue_number}/comments":     5,  // one ping each
		"PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}":      5,  // the status comment
		"POST /repos/{owner}/{repo}/issues/{issue_number}/labels":       5,  // clarification:stale
		"GET /repos/{owner}/{repo}/collaborators/{username}/permission": 0,
	}
	for route, n := range want {
		if by[route] != n {
			t.Errorf("%s: %d requests, want %d", route, by[route], n)
		}
	}

	// The same sweep again (a second replica, or a restart): nothing is posted twice.
	h.Fake.ResetRequests()
	if _, err := h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, writes2, by2 := countBy(h)
	if writes2 != 0 {
		t.Errorf("a second sweep at the same time wrote %d times: %v", writes2, by2)
	}
}

func TestTwoReplicasSweepingAtOnceLeaveOnePingEach(t *testing.T) {
	h, issues := sweepWorld(t)
	replica, err := app.NewApp(h.Config, app.NewLogger(io.Discard, "info"), h.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	h.Fake.Advance(31 * time.Minute)
	h.Fake.SetLatency(2 * time.Millisecond) // widen the window in which both decide to post
	errs := make(chan error, 2)
	go func() { _, err := h.App.Sweep.Run(context.Background()); errs <- err }()
	go func() { _, err := replica.Sweep.Run(context.Background()); errs <- err }()
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Logf("a replica's sweep failed (the other's stands): %v", err)
		}
	}
	h.Fake.SetLatency(0)
	for _, key := range issues {
		repo, num, _ := strings.Cut(key, "#")
		var n int
		fmt.Sscan(num, &n)
		pings := 0
		for _, c := range h.Fake.Comments(repo, n) {
			if c.User == h.Fake.BotLogin() && strings.Contains(c.Body, "Still waiting") {
				pings++
			}
		}
		if pings != 1 {
			t.Errorf("%s: %d pings, want exactly 1", key, pings)
		}
	}
}

func TestSweepBudgetStopsAndTheNextRunContinues(t *testing.T) {
	h, issues := sweepWorld(t)
	h.Fake.Advance(31 * time.Minute)
	h.App.Sweep.Budget = 8

	stale := func() int {
		n := 0
		for _, key := range issues {
			repo, num, _ := strings.Cut(key, "#")
			var i int
			fmt.Sscan(num, &i)
			if l, err := h.Ledger(repo, i); err == nil && l.Clarifications[0].Status == clarify.Stale {
				n++
			}
		}
		return n
	}
	var runs []int
	for run := 0; run < 10 && stale() < len(issues); run++ {
		stats, err := h.Sweep(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, stale())
		if run == 0 && stats.Stopped == 0 {
			t.Errorf("a budget of 8 requests should stop the first run: %+v", stats)
		}
	}
	if stale() != len(issues) {
		t.Fatalf("after %d runs only %d of %d issues were swept: %v", len(runs), stale(), len(issues), runs)
	}
	if len(runs) < 2 {
		t.Errorf("the budget never bit: %v", runs)
	}
	for i := 1; i < len(runs); i++ {
		if runs[i] <= runs[i-1] {
			t.Errorf("run %d made no progress (%v): it must continue where the last one stopped", i, runs)
		}
	}
}

func TestARestartLosesNoTimer(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	// A new process: nothing in memory but the config.
	restarted, err := app.NewApp(w.h.Config, app.NewLogger(io.Discard, "info"), w.h.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	w.h.Fake.Advance(31 * time.Minute)
	if _, err := restarted.Sweep.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
		t.Errorf("after a restart and 31 minutes: %s, want stale", c.Status)
	}
}
