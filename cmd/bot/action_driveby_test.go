package main

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestDriveByAsksCostScheduledProcessesNothing runs the built binary as two scheduled
// workflow runs, each its own process, after a drive-by (read access) asked in 300 issues
// whose own runs were dropped, and an agent's ask in #43 was dropped too. Both runs exit
// 0 without reading a drive-by's issue; the first asks the agent's question.
func TestDriveByAsksCostScheduledProcessesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	const repo, driveBys = "octo/widgets", 300
	dir := t.TempDir()
	bin := filepath.Join(dir, "bot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The process reads the wall clock. The comments are made six minutes before the runs:
	// a newer command may still get a run of its own, and the scheduled run leaves it to
	// that run; these never will.
	var behind atomic.Int64
	behind.Store(int64(6 * time.Minute))
	fake := fakegithub.New(fakegithub.Options{Now: func() time.Time { return time.Now().Add(-time.Duration(behind.Load())) }})
	fake.AddInstallation(1, "octo", repo)
	fake.AddUser("coder-agent", "Bot")
	fake.AddUser("maria", "User")
	fake.SetPermission(repo, "maria", "write")
	fake.AddUser("drive-by", "User")
	fake.SetPermission(repo, "drive-by", "read")
	fake.OpenIssue(repo, 43, "Cache the schema", "maria")
	for i := range driveBys {
		n := 100 + i
		fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "drive-by")
		fake.Comment(repo, n, "drive-by", "/clarify @maria Why is this not done yet?")
		if i == driveBys/2 {
			fake.Comment(repo, 43, "coder-agent", "/clarify @maria Per tenant or per user?")
		}
	}
	behind.Store(0)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	event := filepath.Join(dir, "schedule.json")
	if err := os.WriteFile(event, []byte(`{"schedule":"*/15 * * * *"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var spent []int
	for run := range 2 {
		cmd := exec.Command(bin, "action")
		cmd.Env = append(os.Environ(), "GITHUB_EVENT_NAME=schedule", "GITHUB_EVENT_PATH="+event,
			"GITHUB_REPOSITORY="+repo, "GITHUB_API_URL="+srv.URL, "GITHUB_TOKEN="+fake.WorkflowToken(repo),
			"CLARIFY_LEDGER_KEY="+strings.Repeat("k", 40), fmt.Sprintf("GITHUB_RUN_ID=%d", 700+run),
			fmt.Sprintf("GITHUB_RUN_NUMBER=%d", 7+run), "GITHUB_STEP_SUMMARY=")
		before := len(fake.Requests())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("scheduled run %d after %d drive-by asks: %v\n%s", run+1, driveBys, err, out)
		}
		spent = append(spent, len(fake.Requests())-before)
		for _, q := range fake.Requests()[before:] {
			var num int
			if _, err := fmt.Sscanf(q.Path, "/repos/octo/widgets/issues/%d", &num); err == nil && num >= 100 && num < 100+driveBys {
				t.Errorf("scheduled run %d read the drive-by's #%d: %s %s", run+1, num, q.Method, q.Path)
				break
			}
		}
		if run == 0 && !strings.Contains(strings.Join(fake.IssueLabels(repo, 43), ","), "clarification:active") {
			t.Errorf("the first scheduled run did not ask #43's dropped question:\n%s", fake.Transcript(repo, 43))
		}
	}
	t.Logf("bot action processes, the two scheduled runs after %d drive-by asks: %d and %d requests", driveBys, spent[0], spent[1])
}
