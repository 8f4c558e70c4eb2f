package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// memoryWrites counts the app's writes of the decisions issue n's comments so far.
func memoryWrites(w *driver, n int) int {
	parts := map[string]bool{}
	for _, c := range w.h.Fake.Comments(repo, n) {
		parts[strconv.FormatInt(c.ID, 10)] = true
	}
	writes := 0
	for _, r := range w.h.Fake.Requests() {
		switch {
		case r.Method == http.MethodPost && r.Path == fmt.Sprintf("/repos/%s/issues/%d/comments", repo, n):
			writes++
		case r.Method == http.MethodPatch && strings.HasPrefix(r.Path, "/repos/"+repo+"/issues/comments/") &&
			parts[r.Path[strings.LastIndex(r.Path, "/")+1:]]:
			writes++
		}
	}
	return writes
}

// settleOn asks a question on topic in issue n, has maria answer it and the agent resolve
// it with her answer.
func settleOn(w *driver, n int, topic, answer string) {
	w.t.Helper()
	w.commentOn(n, "coder-agent", "/clarify @maria What should we do?\nTopic: "+topic)
	w.commentOn(n, "maria", answer)
	w.commentOn(n, "coder-agent", fmt.Sprintf("/clarify resolve CLR-%d-001 %s", n, answer))
}

// TestABurstOfDecisionsCostsOneMemoryWriteAMinute: three questions on three topics settled
// in three issues within a minute. The first decision is written into the memory at once,
// the two after it wait for the sweep, which writes them together; a question asked
// meanwhile on one of their topics is offered it all the same.
func TestABurstOfDecisionsCostsOneMemoryWriteAMinute(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	topics := []struct {
		issue         int
		topic, answer string
	}{
		{42, "Cache scope", "Per user."},
		{50, "Upload retries", "Three times."},
		{51, "Log retention", "Thirty days."},
	}
	w.h.Fake.OpenIssue(repo, 50, "Retries", "maria")
	w.h.Fake.OpenIssue(repo, 51, "Logs", "maria")
	for _, tc := range topics {
		settleOn(w, tc.issue, tc.topic, tc.answer)
	}
	n, m := w.memory()
	if len(m.Decisions) != 1 || memoryWrites(w, n) != 1 {
		t.Fatalf("within the minute the memory holds %d decisions after %d writes, want the first one, written once", len(m.Decisions), memoryWrites(w, n))
	}

	w.h.Fake.OpenIssue(repo, 60, "Logs again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria How long do we keep logs?\nTopic: Log retention")
	if got := w.botText(60); !strings.Contains(got, "**Decided before** in CLR-51-001") {
		t.Errorf("a decision waiting for the memory's write was not offered:\n%s", got)
	}

	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, m := w.memory(); len(m.Decisions) != 3 {
		t.Fatalf("after the sweep the memory holds %d decisions, want 3: %+v", len(m.Decisions), m.Decisions)
	}
	t.Logf("3 decisions in a minute: %d writes of the memory", memoryWrites(w, n))
	if got := memoryWrites(w, n); got != 2 {
		t.Errorf("%d writes of the memory for 3 decisions in a minute, want 2 (the first at once, the others together)", got)
	}
}

// TestADecisionWaitingForTheMemorysWriteCanBeSuperseded: a decision made within a minute of
// the memory's last write waits for the next; superseding it at once still finds it.
func TestADecisionWaitingForTheMemorysWriteCanBeSuperseded(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 50, "Retries", "maria")
	settleOn(w, 50, "Upload retries", "Three retries.")
	w.commentOn(50, "maria", "/clarify supersede CLR-50-001 Five retries, with backoff.")
	if got := w.botText(50); strings.Contains(got, "names a decision in force") || strings.Contains(got, "No decision") {
		t.Fatalf("the supersede was refused:\n%s", got)
	}
	_, m := w.memory()
	var inForce []string
	for _, d := range m.Decisions {
		if d.InForce() {
			inForce = append(inForce, d.Decision)
		}
	}
	if strings.Join(inForce, "|") != "Per-user cache, keyed by tenant.|Five retries, with backoff." {
		t.Errorf("decisions in force after the supersede: %q", inForce)
	}
}
