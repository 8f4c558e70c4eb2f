package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestActionReadsTheStepsEnvironment: `bot action` as a workflow step runs it, from
// GITHUB_* variables and the event file alone, and fails loudly without the key.
func TestActionReadsTheStepsEnvironment(t *testing.T) {
	fake, url := actionFake(t)
	d, _ := fake.Comment("octo/widgets", 42, "coder-agent", "/clarify @maria Per key or per IP?")
	dir := t.TempDir()
	event := eventFile(t, dir, d)
	for k, v := range map[string]string{"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "octo/widgets", "GITHUB_API_URL": url, "GITHUB_TOKEN": fake.WorkflowToken("octo/widgets"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "1",
		"CLARIFY_LEDGER_KEY": "", "CLARIFY_APP_SLUG": "", "CLARIFY_ACTION_BUDGET": ""} {
		t.Setenv(k, v)
	}
	var out, logs bytes.Buffer
	if code := run([]string{"action"}, &out, &logs); code != 2 || !strings.HasPrefix(out.String(), "::error title=Clarify::issue_comment: not run: CLARIFY_LEDGER_KEY is not set") ||
		len(fake.Comments("octo/widgets", 42)) != 1 {
		t.Fatalf("without the key: exit %d, %q; want 2, an annotation, nothing written", code, out.String())
	}
	t.Setenv("CLARIFY_LEDGER_KEY", strings.Repeat("k", 40))
	out.Reset()
	if code := run([]string{"action"}, &out, &logs); code != 0 || !strings.Contains(out.String(), "issue_comment.created on octo/widgets#42: done") {
		t.Fatalf("exit %d, %q", code, out.String())
	}
	cs := fake.Comments("octo/widgets", 42)
	for _, c := range cs[1:] {
		if c.User != fakegithub.ActionsBotLogin {
			t.Fatalf("a comment by %s; want the app's by %s", c.User, fakegithub.ActionsBotLogin)
		}
	}
	if len(cs) < 2 {
		t.Fatal("bot action wrote nothing")
	}
	t.Setenv("CLARIFY_ACTION_BUDGET", "many")
	out.Reset()
	if code := run([]string{"action"}, &out, &logs); code != 2 || !strings.Contains(out.String(), "CLARIFY_ACTION_BUDGET") {
		t.Errorf("a bad budget: exit %d, %q", code, out.String())
	}
}
