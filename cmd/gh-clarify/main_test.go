package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/replay"
)

// TestGhClarifyAsksAndReadsWithGhsLogin runs gh clarify ask and status against the
// in-memory GitHub with the real app behind it, logged in as gh would be to the API's host:
// GITHUB_API_URL is the in-memory GitHub on 127.0.0.1, which gh takes for a GitHub
// Enterprise Server, whose token it reads from GH_ENTERPRISE_TOKEN.
func TestGhClarifyAsksAndReadsWithGhsLogin(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Fake.AddInstallation(1, "octo", "octo/widgets")
	h.Fake.AddUser("coder-agent", "User")
	h.Fake.SetPermission("octo/widgets", "coder-agent", "write")
	h.Fake.SetPermission("octo/widgets", "maria", "write")
	var mu sync.Mutex
	deliverAll := func() {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range h.Fake.TakeOutbox() {
			if _, err := h.Deliver(context.Background(), d); err != nil {
				t.Error(err)
			}
		}
	}
	h.Fake.OpenIssue("octo/widgets", 42, "Rate limit", "maria")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // GitHub delivering what happens, as it happens
		for ctx.Err() == nil {
			deliverAll()
			time.Sleep(20 * time.Millisecond)
		}
	}()

	t.Setenv("GH_CONFIG_DIR", t.TempDir()) // no login of the machine's
	t.Setenv("GH_HOST", "")
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GH_ENTERPRISE_TOKEN", h.Fake.PersonalToken("octo/widgets", "coder-agent"))
	t.Setenv("GITHUB_API_URL", h.GitHub.URL+"/")
	t.Setenv("CLARIFY_APP_SLUG", "")
	t.Setenv("CLARIFY_LEDGER_KEY", "")
	t.Setenv("GITHUB_APP_PRIVATE_KEY", "")
	t.Setenv("GITHUB_APP_PRIVATE_KEY_FILE", "")

	var out, errs bytes.Buffer
	if code := run([]string{"ask", "octo/widgets#42", "@maria", "Per API key?"}, &out, &errs); code != 0 || strings.TrimSpace(out.String()) != "CLR-42-001" {
		t.Fatalf("gh clarify ask: exit %d, stdout %q, stderr %q; want 0 and CLR-42-001", code, out.String(), errs.String())
	}
	for _, c := range h.Fake.Comments("octo/widgets", 42) {
		if strings.HasPrefix(c.Body, "/clarify") && c.User != "coder-agent" {
			t.Errorf("the ask was posted by %s; want gh's login, coder-agent", c.User)
		}
	}
	whatItCannotRead(t)
	readAndSettle(t)
}

// whatItCannotRead (issue 40) runs gh clarify on what the ledger does not hold, as bot
// does: an id no ask can become is unknown-clarification (exit 1) at once, not a wait's
// record of zero values; believing another app than Clarify's is cannot-verify (exit 6)
// with the fix.
func whatItCannotRead(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"wait", "--json", "octo/widgets#42", "CLR-42-099", "--timeout", "20s"}, &out, &errs); code != 1 || out.Len() != 0 ||
		!strings.Contains(errs.String(), "unknown-clarification") {
		t.Errorf("gh clarify wait CLR-42-099: exit %d, stdout %q, stderr %q; want 1 and unknown-clarification", code, out.String(), errs.String())
	}
	errs.Reset()
	if code := run([]string{"status", "--app", "other", "octo/widgets#42"}, &out, &errs); code != 6 ||
		!strings.Contains(errs.String(), "cannot-verify") || !strings.Contains(errs.String(), "give --app clarify") {
		t.Errorf("gh clarify status --app other: exit %d, stderr %q; want 6, cannot-verify and --app clarify", code, errs.String())
	}
}

// readAndSettle runs gh clarify status, abandon and ledger on the clarification asked.
func readAndSettle(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"status", "--json", "octo/widgets#42", "CLR-42-001"}, &out, &errs); code != 0 ||
		!strings.Contains(out.String(), `"status": "pending"`) {
		t.Errorf("gh clarify status: exit %d, stdout %q, stderr %q; want the pending record", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"abandon", "octo/widgets#42", "CLR-42-001"}, &out, &errs); code != 0 ||
		!strings.HasPrefix(out.String(), "CLR-42-001  abandoned") {
		t.Errorf("gh clarify abandon: exit %d, stdout %q, stderr %q; want the abandoned record", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"ledger", "octo/widgets#42"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "CLR-42-001") {
		t.Errorf("gh clarify ledger: exit %d, stdout %q, stderr %q; want the ledger", code, out.String(), errs.String())
	}
}

// TestGhClarifySendsATokenOnlyToItsHostsAPI (issue 33): GH_HOST naming one host and
// GITHUB_API_URL another is refused, naming both, before gh's token for GH_HOST is sent
// anywhere; with GITHUB_API_URL alone, the token is gh's for that API's host.
func TestGhClarifySendsATokenOnlyToItsHostsAPI(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	t.Setenv("GH_CONFIG_DIR", t.TempDir())
	t.Setenv("GH_PATH", "/nonexistent/gh") // no gh of the machine's to ask
	t.Setenv("GH_HOST", "ghe.example.com")
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("GH_ENTERPRISE_TOKEN", "ghp_for_ghe_example_com")
	t.Setenv("GITHUB_API_URL", h.GitHub.URL+"/")
	host := strings.TrimPrefix(h.GitHub.URL, "http://")
	var out, errs bytes.Buffer
	code := run([]string{"status", "octo/widgets#42"}, &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "ghe.example.com") || !strings.Contains(errs.String(), host) {
		t.Errorf("gh clarify with GH_HOST and GITHUB_API_URL on two hosts: exit %d, stderr %q; want 1 naming both", code, errs.String())
	}
	if n := len(h.Fake.Requests()); n != 0 {
		t.Errorf("%d requests reached %s with ghe.example.com's token", n, host)
	}

	t.Setenv("GH_HOST", "")
	t.Setenv("GH_ENTERPRISE_TOKEN", "")
	errs.Reset()
	if code := run([]string{"status", "octo/widgets#42"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "not logged in to "+host) {
		t.Errorf("gh clarify with no login for GITHUB_API_URL's host: exit %d, stderr %q; want 1, not logged in to %s", code, errs.String(), host)
	}
}

func TestGhClarifyUsage(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run(nil, &out, &errs); code != 2 || !strings.Contains(errs.String(), "gh clarify <command>") {
		t.Errorf("gh clarify: exit %d, stderr %q; want 2 and the usage", code, errs.String())
	}
	errs.Reset()
	if code := run([]string{"wait", "octo/widgets#42"}, &out, &errs); code != 2 || !strings.HasPrefix(errs.String(), "gh clarify wait: ") {
		t.Errorf("gh clarify wait with no id: exit %d, stderr %q; want 2, said as gh clarify wait", code, errs.String())
	}
}

// TestGhClarifyAnswersHelpForEveryCommand: gh clarify help lists each command, and gh
// clarify help COMMAND prints what it is for and its usage under gh clarify's name.
func TestGhClarifyAnswersHelpForEveryCommand(t *testing.T) {
	var list bytes.Buffer
	if code := run([]string{"help"}, &list, io.Discard); code != 0 {
		t.Fatalf("gh clarify help: exit %d", code)
	}
	for _, name := range []string{"ask", "wait", "status", "resolve", "followup", "abandon", "ledger", "stats"} {
		if !strings.Contains(list.String(), "\n  "+name+" ") {
			t.Errorf("gh clarify help does not list %s:\n%s", name, list.String())
		}
		var out, errs bytes.Buffer
		code := run([]string{"help", name}, &out, &errs)
		summary, _, _ := strings.Cut(out.String(), "\n")
		if code != 0 || errs.Len() != 0 || len(summary) < 20 || !strings.Contains(out.String(), "\nusage: gh clarify "+name+" ") {
			t.Errorf("gh clarify help %s: exit %d, stderr %q, stdout:\n%s\nwant 0, a summary, then the usage", name, code, errs.String(), out.String())
		}
	}
}

// TestGhClarifyLedgerMistakesAreBotLedgers: gh clarify ledger answers a mistake as bot
// ledger does, in one line, exit 2, under its own name.
func TestGhClarifyLedgerMistakesAreBotLedgers(t *testing.T) {
	for args, want := range map[string]string{
		"":                    "gh clarify ledger: give one issue, OWNER/REPO#N",
		"octo/widgets":        `gh clarify ledger: "octo/widgets" names no issue: give OWNER/REPO#N`,
		"octo/widgets#1 -key": "gh clarify ledger: flag provided but not defined: -key",
	} {
		var out, errs bytes.Buffer
		code := run(append([]string{"ledger"}, strings.Fields(args)...), &out, &errs)
		if code != 2 || out.Len() != 0 || strings.Count(errs.String(), "\n") != 1 || !strings.HasPrefix(errs.String(), want) ||
			!strings.HasSuffix(errs.String(), "(gh clarify ledger -h for help)\n") {
			t.Errorf("gh clarify ledger %s: exit %d, stdout %q, stderr %q; want 2 and one line starting %q", args, code, out.String(), errs.String(), want)
		}
	}
}
