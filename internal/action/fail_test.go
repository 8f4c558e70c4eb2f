package action_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestMissingKeyRefusesToWrite: without CLARIFY_LEDGER_KEY the run makes no request at all,
// exits non-zero, and says how to add the secret, as an annotation and in the summary.
func TestMissingKeyRefusesToWrite(t *testing.T) {
	b := newBench(t)
	d, _ := b.fake.Comment(repo, 42, "coder-agent", askWithFallback)
	before := b.fake.Fingerprint()
	env := b.env("issue_comment", b.eventFile(d))
	env.LedgerKey = ""
	r := b.runEnv(env)
	if r.code != action.ExitRefused || r.requests != 0 || b.fake.Fingerprint() != before {
		t.Fatalf("exit %d after %d requests, issue changed: %v; want exit %d, no request", r.code, r.requests,
			b.fake.Fingerprint() != before, action.ExitRefused)
	}
	if !strings.HasPrefix(r.stdout, "::error title=Clarify::") || !strings.Contains(r.stdout, "New repository secret") ||
		!strings.Contains(r.stdout, "ledger-key: ${{ secrets.CLARIFY_LEDGER_KEY }}") {
		t.Errorf("stdout does not annotate the error with how to add the secret: %q", r.stdout)
	}
	summary, err := os.ReadFile(b.summary)
	if err != nil || !strings.Contains(string(summary), "❌ Clarify") || !strings.Contains(string(summary), "CLARIFY_LEDGER_KEY") {
		t.Errorf("step summary = %q, %v", summary, err)
	}
	env.LedgerKey = "short"
	if r := b.runEnv(env); r.code != action.ExitRefused || r.requests != 0 || !strings.Contains(r.stdout, "at least 32") {
		t.Errorf("a short key: exit %d, %d requests, %q", r.code, r.requests, r.stdout)
	}
}

func TestExitCodes(t *testing.T) {
	b := newBench(t)
	cases := map[string]struct {
		event, payload string
		tune           func(*action.Env)
		code           int
		says           string
	}{
		"nothingToDo": {event: "issue_comment", code: action.ExitOK, says: "Nothing to do",
			payload: "plain"},
		"eventNotTaken": {event: "push", payload: `{"ref":"refs/heads/main"}`, code: action.ExitOK, says: "takes no push events"},
		"malformedPayload": {event: "issue_comment", payload: `{"action":"created","comment":{}}`, code: action.ExitFailed,
			says: "::error title=Clarify::"},
		"missingEventFile": {event: "issue_comment", code: action.ExitRefused, says: "GITHUB_EVENT_PATH",
			tune: func(e *action.Env) { e.EventPath = "/nonexistent/event.json" }},
		"badRepository": {event: "schedule", payload: `{}`, code: action.ExitRefused, says: "OWNER/REPO",
			tune: func(e *action.Env) { e.Repository = "widgets" }},
		"badToken": {event: "schedule", payload: `{}`, code: action.ExitFailed, says: "401",
			tune: func(e *action.Env) { e.Token = "ghs_not_a_token" }},
		"budgetSpent": {event: "issue_comment", payload: "ask", code: action.ExitFailed, says: "request budget",
			tune: func(e *action.Env) { e.Budget = 3 }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var path string
			switch tc.payload {
			case "plain":
				d, _ := b.fake.Comment(repo, 42, "drive-by", "Thanks for looking into it.")
				path = b.eventFile(d)
			case "ask":
				d, _ := b.fake.Comment(repo, 42, "coder-agent", "/clarify @maria Per key or per IP?")
				path = b.eventFile(d)
			default:
				path = b.dir + "/" + name + ".json"
				if err := os.WriteFile(path, []byte(tc.payload), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := b.env(tc.event, path)
			if tc.tune != nil {
				tc.tune(&env)
			}
			r := b.runEnv(env)
			if r.code != tc.code || !strings.Contains(r.stdout, tc.says) {
				t.Errorf("exit %d, stdout %q; want exit %d and %q", r.code, r.stdout, tc.code, tc.says)
			}
		})
	}
}

// TestScheduledRunOverBudgetFailsAndTheNextTakesTheRest: a scheduled run whose budget
// cannot cover every active issue stops, fails saying how many it left, and the next
// run (another run number) starts elsewhere, so that every issue gets its turn.
func TestScheduledRunOverBudgetFailsAndTheNextTakesTheRest(t *testing.T) {
	b := newBench(t)
	for n := 100; n < 106; n++ {
		b.fake.OpenIssue(repo, n, "Issue", "maria")
		d, _ := b.fake.Comment(repo, n, "coder-agent", "/clarify @maria Per key or per IP?")
		b.ok("issue_comment", b.eventFile(d))
	}
	b.fake.Advance(31 * time.Minute)
	stale := func() (n int) {
		for i := 100; i < 106; i++ {
			if c, _ := b.ledger(i).Find(fmt.Sprintf("CLR-%d-001", i)); c.Status == clarify.Stale {
				n++
			}
		}
		return n
	}
	for runs := 1; stale() < 6; runs++ {
		if runs > 6 {
			t.Fatalf("six scheduled runs left %d issues not stale", 6-stale())
		}
		env := b.env("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
		env.Budget = 40
		r := b.runEnv(env)
		if stale() < 6 && (r.code != action.ExitFailed || !strings.Contains(r.stdout, "issues left for the next scheduled run")) {
			t.Fatalf("a run that left issues: exit %d, %q", r.code, r.stdout)
		}
	}
}

// TestForkPullRequestWithoutTheKeyIsANotice: GitHub gives a fork's pull_request run no
// secrets, so the missing key is no mistake of the maintainer's: the run exits 0 with a
// notice saying why and where the check comes from, and makes no request. A pull request
// from the repository's own branch without the key is still refused, saying how to add it.
func TestForkPullRequestWithoutTheKeyIsANotice(t *testing.T) {
	b := newBench(t)
	b.fake.OpenPullRequestWithBody(repo, 7, "Use UTC", "alice", "Fixes #42")
	fork := b.fake.OpenPullRequestWith(repo, 8, "Copy", "mallory", "Fixes #42", fakegithub.PullOptions{Fork: true, HeadOf: 7})
	before := b.fake.Fingerprint()
	env := b.env("pull_request", b.eventFile(fork))
	env.LedgerKey = ""
	r := b.runEnv(env)
	if r.code != action.ExitOK || r.requests != 0 || b.fake.Fingerprint() != before {
		t.Fatalf("a fork's pull request without the key: exit %d after %d requests; want exit 0, no request", r.code, r.requests)
	}
	if !strings.HasPrefix(r.stdout, "::notice title=Clarify::") || !strings.Contains(r.stdout, "fork") ||
		!strings.Contains(r.stdout, "no secrets") || strings.Contains(r.stdout, "New repository secret") {
		t.Errorf("stdout does not give the notice that forks get no secrets: %q", r.stdout)
	}
	own := b.fake.OpenPullRequestWithBody(repo, 9, "Limit per key", "alice", "Fixes #42")
	env = b.env("pull_request", b.eventFile(own))
	env.LedgerKey = ""
	if r := b.runEnv(env); r.code != action.ExitRefused || !strings.Contains(r.stdout, "New repository secret") {
		t.Errorf("the base repository's own pull request without the key: exit %d, %q", r.code, r.stdout)
	}
}
