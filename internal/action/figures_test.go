package action_test

import (
	"fmt"
	"net/http"
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
		total, writes, routes := b.playLifecycle(tc.issue, "coder-agent", tc.id)
		b.lifecycleDone(tc.name, tc.issue, tc.id)
		t.Logf("one-round lifecycle in Action mode, %s: %d requests (%d writes)\n%s", tc.name, total, writes, routes)
		totals = append(totals, total)
	}
	if totals[0] > 18 || totals[1] >= totals[0] {
		t.Errorf("a repository's first lifecycle costs %d requests and the next %d; want at most 18, and fewer for the next", totals[0], totals[1])
	}
}

// TestRequestsPerLifecycleWithAConfigFile prints the requests and writes of the same one-round
// lifecycle where the repository is set up as a workflow user's is: a
// `.github/clarify.yml` with roles and the workflow's verify_keys, and a person with write
// access (not a bot) asking and resolving. Each lifecycle must have done its part, as in
// TestRequestsPerLifecycle. The first costs at most 17 requests and the next at most 16,
// as measured, so that a regression shows: the file is read once a lifecycle (the ledger
// keeps it until the next push) and the resolver, a role's person, needs no permission look-up.
func TestRequestsPerLifecycleWithAConfigFile(t *testing.T) {
	b := newBench(t)
	b.settle = 200 * time.Millisecond
	b.fake.AddUser("alice", "User")
	b.fake.SetPermission(repo, "alice", "write")
	b.fake.SetFile(repo, ".github/clarify.yml", "roles:\n  engineer: [alice]\n  architect: [maria]\n"+verifyKeysLine(t))
	b.fake.OpenIssue(repo, 44, "Cache the schema", "maria")
	var totals []int
	for _, tc := range []struct {
		name  string
		issue int
		id    string
	}{
		{"first in the repository", 42, "CLR-42-001"},
		{"next one", 44, "CLR-44-001"},
	} {
		total, writes, routes := b.playLifecycle(tc.issue, "alice", tc.id)
		b.lifecycleDone(tc.name, tc.issue, tc.id)
		t.Logf("one-round lifecycle in Action mode with a config file, asked by a collaborator, %s: %d requests (%d writes)\n%s",
			tc.name, total, writes, routes)
		totals = append(totals, total)
	}
	if totals[0] > 17 || totals[1] > 16 {
		t.Errorf("with a config file and a collaborator asking, a repository's first lifecycle costs %d requests and the next %d; want at most 17 and 16", totals[0], totals[1])
	}
}

// playLifecycle plays ask (by asker, to maria), answer and resolve in issue n, each its own
// `bot action` run, and returns the requests and writes of the three runs and their
// routes, each run's followed by its count.
func (b *bench) playLifecycle(n int, asker, id string) (requests, writes int, routes string) {
	b.t.Helper()
	var lines []string
	for _, step := range []struct{ author, body string }{
		{asker, askWithFallback},
		{"maria", "Per API key: anonymous calls are blocked at the gateway."},
		{asker, "/clarify resolve " + id + " Per API key."},
	} {
		d, _ := b.fake.Comment(repo, n, step.author, step.body)
		before := len(b.fake.Requests())
		b.ok("issue_comment", b.eventFile(d))
		reqs, w := 0, 0
		for _, r := range b.fake.Requests()[before:] {
			lines = append(lines, r.Method+" "+r.Path)
			reqs++
			if r.Method != http.MethodGet {
				w++
			}
		}
		requests, writes = requests+reqs, writes+w
		lines = append(lines, fmt.Sprintf("  (%d requests, %d writes)", reqs, w))
	}
	return requests, writes, strings.Join(lines, "\n")
}

// lifecycleDone fails the test unless the lifecycle of id in issue n did its part:
// resolved, its labels gone, its decision remembered.
func (b *bench) lifecycleDone(name string, n int, id string) {
	b.t.Helper()
	c, ok := b.ledger(n).Find(id)
	if !ok || c.Status != "resolved" || len(b.fake.IssueLabels(repo, n)) != 0 {
		b.t.Fatalf("%s: %s not resolved with its labels gone: %+v, labels %v", name, id, c, b.fake.IssueLabels(repo, n))
	}
	if _, ids := b.decisions(); !slices.Contains(ids, id) {
		b.t.Fatalf("%s: %s not in the decision memory: %v", name, id, ids)
	}
}
