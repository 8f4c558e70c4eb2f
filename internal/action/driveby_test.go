package action_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// An outsider (read access, no part in any clarification) posts `/clarify @maria …` in 300
// issues, and each of those comments' own runs is dropped, as a busy concurrency group
// does. The fold ignores a drive-by's command (nothing is written), so nothing shows a run
// applied it: the scheduled runs must still not spend their budget reading those issues.

const driveBys = 300

// driveByFlood opens issues 100 to 399, each with a drive-by's ask whose run never happened.
func (b *bench) driveByFlood() {
	for i := range driveBys {
		n := 100 + i
		b.fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "drive-by")
		b.fake.Comment(repo, n, "drive-by", "/clarify @maria Why is this not done yet?")
	}
}

// readsOf counts the requests since start that read one of the drive-by's issues.
func (b *bench) readsOf(start int) int {
	n := 0
	for _, q := range b.fake.Requests()[start:] {
		var num int
		if _, err := fmt.Sscanf(q.Path, "/repos/octo/widgets/issues/%d", &num); err == nil && num >= 100 && num < 100+driveBys {
			n++
		}
	}
	return n
}

// TestDriveByAsksCostTheScheduledRunsNothing: with 300 drive-by asks in the scan window
// and a question on #42 past its deadline, the next two scheduled runs exit 0, read none of
// the drive-by's issues, and mark #42 stale.
func TestDriveByAsksCostTheScheduledRunsNothing(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.driveByFlood()
	b.fake.Advance(31 * time.Minute)
	var spent []int
	for run := range 2 {
		start := len(b.fake.Requests())
		r := b.run("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
		spent = append(spent, r.requests)
		if r.code != 0 {
			t.Fatalf("scheduled run %d after %d drive-by asks exited %d:\n%s", run+1, driveBys, r.code, r.stdout)
		}
		if n := b.readsOf(start); n != 0 {
			t.Errorf("scheduled run %d read the drive-by's issues %d times", run+1, n)
		}
		b.fake.Advance(15 * time.Minute)
	}
	if c := b.clar("CLR-42-001"); c.Status != clarify.Stale {
		t.Errorf("#42's question past its deadline is %s after the scheduled runs, want stale", c.Status)
	}
	t.Logf("after %d drive-by asks, the next two scheduled runs made %d and %d requests (budget %d each)", driveBys, spent[0], spent[1], 300)
}

// TestACollaboratorsMissedAskIsPickedUpAmidDriveBys is the guard: before and among the
// drive-by's asks, maria (write access) and coder-agent (an agent, a bot account) asked in
// issues of their own, and none of those runs happened. The first scheduled run asks all
// three questions.
func TestACollaboratorsMissedAskIsPickedUpAmidDriveBys(t *testing.T) {
	b := newBench(t)
	b.fake.AddUser("rex", "User")
	b.fake.OpenIssue(repo, 43, "Cache the schema", "maria")
	b.fake.OpenIssue(repo, 44, "Cache the tokens", "maria")
	b.fake.OpenIssue(repo, 45, "Keep the logs", "maria")
	for i := range driveBys {
		n := 100 + i
		b.fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "drive-by")
		b.fake.Comment(repo, n, "drive-by", "/clarify @maria Why is this not done yet?")
		switch i {
		case 0:
			b.fake.Comment(repo, 45, "maria", "/clarify @rex Which region stores the logs?")
		case 50:
			b.fake.Comment(repo, 43, "maria", "/clarify @rex Which browser showed the error?")
		case 150:
			b.fake.Comment(repo, 44, "coder-agent", "/clarify @maria Per key or per IP?")
		}
	}
	b.fake.Advance(5 * time.Minute)
	b.schedule()
	for n, id := range map[int]string{43: "CLR-43-001", 44: "CLR-44-001", 45: "CLR-45-001"} {
		if c, ok := b.ledger(n).Find(id); !ok || c.Status != clarify.Pending {
			t.Errorf("#%d's missed ask after the first scheduled run: %+v, want pending", n, c)
		}
		if !strings.Contains(strings.Join(b.fake.IssueLabels(repo, n), ","), "clarification:active") {
			t.Errorf("#%d has no active label after the scheduled run", n)
		}
	}
}

// TestDeadlinesComeFirstAndTheNextRunTakesTheRest: 60 agents' asks whose runs were all
// dropped cost more than one run's budget, and #42's question is past its deadline. The
// first scheduled run marks #42 stale before it takes any of the asks, and says it left
// some; each next run takes asks the runs before it did not, until all are asked.
func TestDeadlinesComeFirstAndTheNextRunTakesTheRest(t *testing.T) {
	const asks = 60
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	for i := range asks {
		n := 100 + i
		b.fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		b.fake.Comment(repo, n, "coder-agent", "/clarify @maria Per key or per IP?")
	}
	b.fake.Advance(31 * time.Minute)
	asked := func() int {
		k := 0
		for i := range asks {
			if strings.Contains(strings.Join(b.fake.IssueLabels(repo, 100+i), ","), "clarification:active") {
				k++
			}
		}
		return k
	}
	first := b.run("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
	if c := b.clar("CLR-42-001"); c.Status != clarify.Stale {
		t.Fatalf("#42's question past its deadline is %s after the first scheduled run, want stale", c.Status)
	}
	if first.code != 1 || !strings.Contains(first.stdout, "left for the next scheduled run") || asked() == 0 || asked() == asks {
		t.Fatalf("the first run (exit %d) asked %d of %d: want some, and a failure saying the rest is left:\n%s", first.code, asked(), asks, first.stdout)
	}
	counts := []int{asked()}
	for run := 0; asked() < asks && run < 10; run++ {
		b.fake.Advance(time.Minute) // within #42's new deadline: nothing else is due
		b.run("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
		if asked() <= counts[len(counts)-1] {
			t.Fatalf("scheduled run %d asked no question the runs before it left (asked: %v then %d)", run+2, counts, asked())
		}
		counts = append(counts, asked())
	}
	if asked() != asks {
		t.Errorf("after %d scheduled runs %d of %d asks are asked", len(counts), asked(), asks)
	}
	t.Logf("questions asked after each scheduled run: %v", counts)
}
