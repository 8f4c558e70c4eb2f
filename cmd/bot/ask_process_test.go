package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTheJobsTokenAsksByDispatchThroughTheBinary (issue 33): bot ask run as its own
// process in a job (GITHUB_ACTIONS=true), given the workflow's token as GH_TOKEN, as GitHub
// documents for gh, with the app's default slug: the ask goes as a repository_dispatch,
// which starts a run where a comment with that token would start none, and bot finds the
// clarification it became by its nonce.
func TestTheJobsTokenAsksByDispatchThroughTheBinary(t *testing.T) {
	w, bin, _ := newProcessWorld(t, true)
	h := w.h
	cmd := exec.Command(bin, "ask", "octo/widgets#42", "@maria", "Per API key?", "--ref", "step-1", "--timeout", "30s")
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_TOKEN=", "GH_TOKEN="+h.Fake.WorkflowToken("octo/widgets"),
		"GITHUB_API_URL="+h.GitHub.URL+"/", "GH_HOST=", "CLARIFY_APP_SLUG=", "CLARIFY_LEDGER_KEY=", "GITHUB_APP_PRIVATE_KEY=",
		"GITHUB_APP_PRIVATE_KEY_FILE=")
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if err != nil || strings.TrimSpace(out.String()) != "CLR-42-001" || len(h.Fake.Dispatches("octo/widgets")) != 1 {
		t.Fatalf("bot ask with the job's token as GH_TOKEN: %v, stdout %q, stderr %q, %d dispatches; want CLR-42-001 asked by one dispatch",
			err, out.String(), errs.String(), len(h.Fake.Dispatches("octo/widgets")))
	}
}
