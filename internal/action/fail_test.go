package action_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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
	if !strings.HasPrefix(r.stdout, "::error title=Clarify::") || !strings.Contains(r.stdout, "gh secret set CLARIFY_LEDGER_KEY") ||
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

// TestPullRequestWithoutTheKeyIsANotice: GitHub gives a fork's pull_request run no
// secrets, and Dependabot's runs only Dependabot's, so a pull request run without the key
// is no failure: it exits 0 with a notice saying why (for a branch of the repository, naming
// Dependabot's case and how to add the secret otherwise) and where the check comes from,
// and makes no request.
func TestPullRequestWithoutTheKeyIsANotice(t *testing.T) {
	b := newBench(t)
	b.fake.OpenPullRequestWithBody(repo, 7, "Use UTC", "alice", "Fixes #42")
	fork := b.fake.OpenPullRequestWith(repo, 8, "Copy", "mallory", "Fixes #42", fakegithub.PullOptions{Fork: true, HeadOf: 7})
	own := b.fake.OpenPullRequestWithBody(repo, 9, "Bump golang.org/x/net", "dependabot[bot]", "Fixes #42")
	cases := []struct {
		name, event string
		d           fakegithub.Delivery
		says        []string
	}{
		{"a fork's", "pull_request", fork, []string{"fork", "no secrets"}},
		{"a branch of the repository's", "pull_request", own, []string{"Dependabot", "Dependabot secrets", "Settings → Secrets and variables → Actions", "next run that has the key"}},
		{"a branch of the repository's, as pull_request_target", "pull_request_target", own, []string{"Dependabot"}},
	}
	for _, tc := range cases {
		before := b.fake.Fingerprint()
		env := b.env(tc.event, b.eventFile(tc.d))
		env.LedgerKey = ""
		r := b.runEnv(env)
		if r.code != action.ExitOK || r.requests != 0 || b.fake.Fingerprint() != before {
			t.Errorf("%s pull request without the key: exit %d after %d requests; want exit 0, no request", tc.name, r.code, r.requests)
		}
		if !strings.HasPrefix(r.stdout, "::notice title=Clarify::"+tc.event+": ") {
			t.Errorf("%s: %q is no notice", tc.name, r.stdout)
		}
		for _, s := range tc.says {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%s: %q does not say %q", tc.name, r.stdout, s)
			}
		}
	}
}

// TestUnreachableAPINamesGITHUB_API_URL: a GITHUB_API_URL where nothing answers fails the
// run with the hint to check it, as the server's start does.
func TestUnreachableAPINamesGITHUB_API_URL(t *testing.T) {
	b := newBench(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	gone := srv.URL
	srv.Close() // nothing listens there now
	d, _ := b.fake.Comment(repo, 42, "coder-agent", askWithFallback)
	for _, event := range []string{"issue_comment", "schedule"} {
		env := b.env(event, b.eventFile(d))
		env.APIURL = gone
		r := b.runEnv(env)
		if r.code != action.ExitFailed || !strings.Contains(r.stdout, "cannot reach GitHub at "+gone+": check GITHUB_API_URL and the network") {
			t.Errorf("%s with nothing at GITHUB_API_URL: exit %d, %q", event, r.code, r.stdout)
		}
	}
}

// TestPullRequestTargetIsAPullRequest: a workflow on pull_request_target (which runs with
// the base repository's key and token, for forks too) gets the same check as on
// pull_request.
func TestPullRequestTargetIsAPullRequest(t *testing.T) {
	b := newBench(t)
	b.checks = true
	b.ok("issue_comment", b.eventFile(b.commentOnly("coder-agent", askWithFallback)))
	fork := b.fake.OpenPullRequestWith(repo, 8, "Limit per key", "mallory", "Fixes #42", fakegithub.PullOptions{Fork: true})
	r := b.ok("pull_request_target", b.eventFile(fork))
	if strings.Contains(r.stdout, "takes no") || r.requests == 0 {
		t.Fatalf("pull_request_target was not run as a pull request: %q", r.stdout)
	}
	runs := b.fake.CheckRuns(repo, b.fake.PullHead(repo, 8))
	if len(runs) != 1 || runs[0].Conclusion != "failure" {
		t.Errorf("check runs on the fork's pull request: %+v, want one failing (#42 has a blocking clarification)", runs)
	}
}
