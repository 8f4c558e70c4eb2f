package handlers_test

import (
	"bufio"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// pacedWrites reads from the app's /metrics how many writes the pacer held back.
func pacedWrites(t *testing.T, w *driver) string {
	t.Helper()
	resp, err := http.Get(w.h.AppServer.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), `clarify_github_paced_wait_seconds_count{kind="write"}`) {
			return strings.Fields(sc.Text())[1]
		}
	}
	return "0"
}

// TestChecksNeverTakeTheWritesAClarificationNeeds: with the installation's minute nearly
// spent, a collaborator's pull request linking eight blocked issues gets its check runs
// deferred, and an ask right after is mirrored without the pacer holding any of its writes.
func TestChecksNeverTakeTheWritesAClarificationNeeds(t *testing.T) {
	w := &driver{t: t, h: newHarnessWith(t, func(c *app.Config) { c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour = 20, -1 })}
	var body strings.Builder
	for n := 1; n <= 8; n++ {
		w.h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		d, _ := w.h.Fake.Comment(repo, n, "coder-agent", "/clarify @maria Which way?")
		w.send(d)
		fmt.Fprintf(&body, "fixes #%d\n", n)
	}
	spent := len(writes(w.h))
	w.openPRWith(60, "maria", body.String(), fakegithub.PullOptions{})
	checks := len(w.h.Fake.CheckRuns(repo, w.h.Fake.PullHead(repo, 60)))
	w.comment("coder-agent", "/clarify @maria Per API key or per client IP?")
	held := pacedWrites(t, w)
	t.Logf("writes in the minute before the pull request: %d of 20; its check runs written: %d of 8; writes the pacer held back: %s",
		spent, checks, held)
	if w.botComments("CLR-42-001") == 0 {
		t.Fatal("the ask was not mirrored")
	}
	if spent < 15 {
		t.Fatalf("the setup spent %d writes, the test needs the minute's last quarter", spent)
	}
	if held != "0" || checks != 0 {
		t.Errorf("check runs took the clarification's writes: %d written, %s writes held back", checks, held)
	}
}
