package main

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// TestActionAsOneProcessPerEvent runs the built binary, one process per event as a
// workflow does, through a one-round lifecycle, and prints each process's time from start
// to exit and its requests.
func TestActionAsOneProcessPerEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bot")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The wall clock, which the process reads: no deadline passes during the lifecycle.
	fake := fakegithub.New(fakegithub.Options{Now: time.Now})
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("coder-agent", "Bot")
	fake.AddUser("maria", "User")
	fake.SetPermission("octo/widgets", "maria", "write")
	fake.OpenIssue("octo/widgets", 42, "Rate limits", "maria")
	srv := httptest.NewServer(fake)
	defer srv.Close()
	token := fake.WorkflowToken("octo/widgets")
	var took []string
	total := 0
	for i, step := range [][2]string{{"coder-agent", "/clarify @maria Per key or per IP?"}, {"maria", "Per key."},
		{"coder-agent", "/clarify resolve CLR-42-001 Per key."}} {
		d, _ := fake.Comment("octo/widgets", 42, step[0], step[1])
		event := eventFile(t, dir, d)
		cmd := exec.Command(bin, "action")
		cmd.Env = append(os.Environ(), "GITHUB_EVENT_NAME=issue_comment", "GITHUB_EVENT_PATH="+event,
			"GITHUB_REPOSITORY=octo/widgets", "GITHUB_API_URL="+srv.URL, "GITHUB_TOKEN="+token,
			"CLARIFY_LEDGER_KEY="+strings.Repeat("k", 40), "GITHUB_RUN_ID="+string(rune('1'+i)), "GITHUB_STEP_SUMMARY=")
		before := len(fake.Requests())
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bot action on %q: %v\n%s", step[1], err, out)
		}
		took = append(took, time.Since(start).Round(time.Millisecond).String())
		total += len(fake.Requests()) - before
	}
	resolved := false
	for _, c := range fake.Comments("octo/widgets", 42) {
		if c.User == fakegithub.ActionsBotLogin && render.IsStatus(c.Body) {
			l, err := render.DecodeLedger(c.Body, ledger.IssueLedgerKey([]byte(strings.Repeat("k", 40)), "octo", "widgets", 42))
			cl, _ := l.Find("CLR-42-001")
			resolved = err == nil && cl.Status == clarify.Resolved
		}
	}
	if !resolved {
		t.Fatalf("after the lifecycle the status comment by %s does not hold CLR-42-001 resolved", fakegithub.ActionsBotLogin)
	}
	t.Logf("bot action as a process, start to exit (ask, answer, resolve): %s; %d requests in all", strings.Join(took, ", "), total)
}
