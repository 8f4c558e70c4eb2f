package action_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScheduledRunCost prints what a scheduled run costs in requests with 10 and 100
// active issues: the first, which reads every issue and writes the sweep index; the next
// when nothing is due (the index vouches for every issue), and what such runs of the
// default schedule spend in a day; and one when every question has just gone stale. Every
// question must be stale after the last: the index leaves out no issue that is due.
func TestScheduledRunCost(t *testing.T) {
	for _, n := range []int{10, 100} {
		b := newBench(t)
		for i := range n {
			num := 100 + i
			b.fake.OpenIssue(repo, num, fmt.Sprintf("Issue %d", num), "maria")
			d, _ := b.fake.Comment(repo, num, "coder-agent", "/clarify @maria Per key or per IP?")
			b.ok("issue_comment", b.eventFile(d))
		}
		b.fake.Advance(10 * time.Minute)
		first := b.schedule()
		b.fake.Advance(time.Minute)
		idle := b.schedule()
		b.fake.Advance(21 * time.Minute)
		env := b.env("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
		env.Budget = 100_000
		due := b.runEnv(env)
		if due.code != 0 {
			t.Fatalf("scheduled run with %d due issues exited %d: %s", n, due.code, due.stdout)
		}
		for i := range n {
			if c, _ := b.ledger(100 + i).Find(fmt.Sprintf("CLR-%d-001", 100+i)); c.Status != "stale" {
				t.Fatalf("#%d not stale after the scheduled run: %s", 100+i, c.Status)
			}
		}
		t.Logf("scheduled run, %3d active issues: %4d requests the first time, %4d when nothing is due (12 runs a day at the default schedule: %d a day), %4d when all went stale at once",
			n, first.requests, idle.requests, 12*idle.requests, due.requests)
	}
}

// TestRequestsPerLifecycle prints the requests of a one-round lifecycle (ask, answer,
// resolve), each event its own fresh `bot action` run: the first in a repository (which
// makes its labels and its decision memory), the next one (which finds them), and one
// where the repository turned offers off, with the save's settle delay on as in a
// workflow. The first must cost at most 18 and the next fewer. Each lifecycle is also
// checked to have done its part (resolved, its label gone, its decision remembered), so
// that a cheaper figure cannot come from a run that skipped its work.
func TestRequestsPerLifecycle(t *testing.T) {
	b := newBench(t)
	b.settle = 200 * time.Millisecond
	b.fake.OpenIssue(repo, 44, "Cache the schema", "maria")
	b.fake.OpenIssue(repo, 46, "Cache the tokens", "maria")
	var totals []int
	for _, tc := range []struct {
		name   string
		issue  int
		id     string
		config string
	}{
		{"first in the repository", 42, "CLR-42-001", ""},
		{"next one", 44, "CLR-44-001", ""},
		{"next one, with decisions: {offer: false}", 46, "CLR-46-001", "decisions:\n  offer: false\n"},
	} {
		if tc.config != "" {
			b.fake.SetFile(repo, ".github/clarify.yml", tc.config)
		}
		var routes []string
		total := 0
		for _, step := range []struct{ author, body string }{
			{"coder-agent", askWithFallback},
			{"maria", "Per API key: anonymous calls are blocked at the gateway."},
			{"coder-agent", "/clarify resolve " + tc.id + " Per API key."},
		} {
			d, _ := b.fake.Comment(repo, tc.issue, step.author, step.body)
			before := len(b.fake.Requests())
			b.ok("issue_comment", b.eventFile(d))
			n := 0
			for _, r := range b.fake.Requests()[before:] {
				routes = append(routes, r.Method+" "+r.Path)
				n++
			}
			total += n
			routes = append(routes, fmt.Sprintf("  (%d requests)", n))
		}
		c, ok := b.ledger(tc.issue).Find(tc.id)
		if !ok || c.Status != "resolved" || len(b.fake.IssueLabels(repo, tc.issue)) != 0 {
			t.Fatalf("%s: %s not resolved with its labels gone: %+v, labels %v", tc.name, tc.id, c, b.fake.IssueLabels(repo, tc.issue))
		}
		if _, ids := b.decisions(); !slices.Contains(ids, tc.id) {
			t.Fatalf("%s: %s not in the decision memory: %v", tc.name, tc.id, ids)
		}
		t.Logf("one-round lifecycle in Action mode, %s: %d requests\n%s", tc.name, total, strings.Join(routes, "\n"))
		totals = append(totals, total)
	}
	if totals[0] > 18 || totals[1] >= totals[0] {
		t.Errorf("a repository's first lifecycle costs %d requests and the next %d; want at most 18, and fewer for the next", totals[0], totals[1])
	}
}
