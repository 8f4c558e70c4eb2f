package action_test

import (
	"fmt"
	"testing"
)

// TestRequestsPerTypedLifecycle prints the requests of a one-round lifecycle of a typed
// question (ask with `Expect: number 1..100`, answer, resolve), each event its own fresh
// `bot action` run, when the first reply fits and when one reply that does not fit comes
// first (its reply in the thread is the cost). A repository's first lifecycle runs before
// both, so that neither pays for the labels and the decision memory.
func TestRequestsPerTypedLifecycle(t *testing.T) {
	b := newBench(t)
	b.fake.OpenIssue(repo, 44, "Size the worker pool", "maria")
	b.fake.OpenIssue(repo, 46, "Size the upload pool", "maria")
	var totals []int
	for _, tc := range []struct {
		issue   int
		replies []string
	}{
		{42, []string{"20 workers"}},
		{44, []string{"20 workers"}},
		{46, []string{"about twenty", "20 workers"}},
	} {
		id := fmt.Sprintf("CLR-%d-001", tc.issue)
		steps := []struct{ author, body string }{{"coder-agent", "/clarify @maria How many workers?\nExpect: number 1..100"}}
		for _, r := range tc.replies {
			steps = append(steps, struct{ author, body string }{"maria", r})
		}
		steps = append(steps, struct{ author, body string }{"coder-agent", "/clarify resolve " + id})
		before := len(b.fake.Requests())
		for _, step := range steps {
			d, _ := b.fake.Comment(repo, tc.issue, step.author, step.body)
			b.ok("issue_comment", b.eventFile(d))
		}
		if c, _ := b.ledger(tc.issue).Find(id); c.Status != "resolved" || string(c.Thread[1].Value) != "20" {
			t.Fatalf("%s: %+v, want resolved with the answer's value 20", id, c)
		}
		totals = append(totals, len(b.fake.Requests())-before)
	}
	t.Logf("typed one-round lifecycle in Action mode: %d requests when the first reply fits, %d with one reply that does not fit first",
		totals[1], totals[2])
	if totals[2] <= totals[1] {
		t.Errorf("a reply that does not fit cost nothing (%d requests against %d): its reply in the thread is missing", totals[2], totals[1])
	}
}
