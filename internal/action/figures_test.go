package action_test

import (
	"fmt"
	"testing"
	"time"
)

// TestScheduledRunCost prints what a scheduled run costs in requests with 10 and 100
// active issues: when nothing is due, and when every question has just gone stale; and
// what that gives against GITHUB_TOKEN's 1,000 requests an hour per repository.
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
		idle := b.schedule()
		b.fake.Advance(22 * time.Minute)
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
		t.Logf("scheduled run, %3d active issues: %4d requests when nothing is due (%d runs an hour at */15: %d of 1,000), %4d when all went stale at once",
			n, idle.requests, 4, 4*idle.requests, due.requests)
	}
}
