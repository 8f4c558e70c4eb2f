package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestActionSaysWhatTheOperatorGotWrong: each mistake in a step's settings gets its exit
// code and a message naming the setting, as a clean ::error annotation, before any request
// to GitHub.
func TestActionSaysWhatTheOperatorGotWrong(t *testing.T) {
	fake, url := actionFake(t)
	dir := t.TempDir()
	d, _ := fake.Comment("octo/widgets", 42, "maria", "Any news?")
	event := eventFile(t, dir, d)
	notJSON := filepath.Join(dir, "event.txt")
	if err := os.WriteFile(notJSON, []byte("issue_comment created"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := map[string]string{"GITHUB_EVENT_NAME": "issue_comment", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "octo/widgets", "GITHUB_API_URL": url, "GITHUB_TOKEN": fake.WorkflowToken("octo/widgets"),
		"GITHUB_STEP_SUMMARY": "", "GITHUB_RUN_ID": "77", "CLARIFY_LEDGER_KEY": strings.Repeat("k", 40),
		"CLARIFY_APP_SLUG": "", "CLARIFY_ACTION_BUDGET": "", "CLARIFY_CHECKS": "", "CLARIFY_LOG_LEVEL": ""}
	cases := []struct {
		name string
		set  map[string]string
		code int
		says []string
	}{
		{"the app slug written with [bot]", map[string]string{"CLARIFY_APP_SLUG": "clarify[bot]"}, 2,
			[]string{`::error title=Clarify::issue_comment: not run: CLARIFY_APP_SLUG (the action's app-slug input) is "clarify[bot]", not a slug`, "without [bot]"}},
		{"the event path unset", map[string]string{"GITHUB_EVENT_PATH": ""}, 2,
			[]string{"::error title=Clarify::issue_comment: not run: GITHUB_EVENT_PATH is not set"}},
		{"the event path unreadable", map[string]string{"GITHUB_EVENT_PATH": filepath.Join(dir, "gone.json")}, 2,
			[]string{"GITHUB_EVENT_PATH, the event's payload, cannot be read", filepath.Join(dir, "gone.json")}},
		{"an event file that is not JSON", map[string]string{"GITHUB_EVENT_PATH": notJSON}, 2,
			[]string{"::error title=Clarify::issue_comment: not run: GITHUB_EVENT_PATH, the event's payload, is not JSON: " + notJSON}},
		{"an API URL that is no URL", map[string]string{"GITHUB_API_URL": "api.github.com"}, 2,
			[]string{`GITHUB_API_URL is "api.github.com", not a URL`}},
		{"an API URL that is no URL, on a schedule", map[string]string{"GITHUB_API_URL": "https//api.github.com", "GITHUB_EVENT_NAME": "schedule"}, 2,
			[]string{"::error title=Clarify::schedule: not run: GITHUB_API_URL is"}},
		{"an API URL that is no URL, on an event Clarify does not take", map[string]string{"GITHUB_API_URL": "not a url", "GITHUB_EVENT_NAME": "push"}, 2,
			[]string{"GITHUB_API_URL is"}},
		{"an API URL that is no URL, on a pull request without the key", map[string]string{"GITHUB_API_URL": "::", "GITHUB_EVENT_NAME": "pull_request", "CLARIFY_LEDGER_KEY": ""}, 2,
			[]string{"GITHUB_API_URL is"}},
		{"no event name: a clean title", map[string]string{"GITHUB_EVENT_NAME": ""}, 2,
			[]string{"::error title=Clarify::not run: GITHUB_EVENT_NAME is not set"}},
		{"no repository", map[string]string{"GITHUB_REPOSITORY": ""}, 2,
			[]string{"::error title=Clarify::issue_comment: not run: GITHUB_REPOSITORY is not set: the runner sets it to OWNER/REPO"}},
		{"a budget that is no number", map[string]string{"CLARIFY_ACTION_BUDGET": "lots"}, 2,
			[]string{`::error title=Clarify::issue_comment: not run: CLARIFY_ACTION_BUDGET is "lots": write a whole number`}},
		{"checks neither true nor false", map[string]string{"CLARIFY_CHECKS": "yes"}, 2,
			[]string{`::error title=Clarify::issue_comment: not run: CLARIFY_CHECKS is "yes": write true or false`}},
		{"a log level that is none", map[string]string{"CLARIFY_LOG_LEVEL": "verbose"}, 2,
			[]string{`::error title=Clarify::issue_comment: not run: CLARIFY_LOG_LEVEL is "verbose", not a level: write debug, info, warn or error`}},
	}
	for _, tc := range cases {
		for k, v := range base {
			t.Setenv(k, v)
		}
		for k, v := range tc.set {
			t.Setenv(k, v)
		}
		before := len(fake.Requests())
		var out, logs bytes.Buffer
		code := run([]string{"action"}, &out, &logs)
		if code != tc.code || len(fake.Requests()) != before {
			t.Errorf("%s: exit %d after %d requests, want %d and none: %s", tc.name, code, len(fake.Requests())-before, tc.code, out.String())
		}
		if !strings.HasPrefix(out.String(), "::error title=Clarify::") || strings.Contains(out.String(), "::: ") {
			t.Errorf("%s: %q is not a clean ::error annotation", tc.name, out.String())
		}
		for _, s := range tc.says {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s: %q does not say %q", tc.name, out.String(), s)
			}
		}
	}
}

// TestActionLogsAtInfoUnlessToldOtherwise: in Action mode the log holds info and above
// by default; CLARIFY_LOG_LEVEL=debug shows each decision, error only the failures.
func TestActionLogsAtInfoUnlessToldOtherwise(t *testing.T) {
	fake, url := actionFake(t)
	dir := t.TempDir()
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, []byte(`{"schedule": "7 */2 * * *"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"GITHUB_EVENT_NAME": "schedule", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "octo/widgets", "GITHUB_API_URL": url, "GITHUB_TOKEN": fake.WorkflowToken("octo/widgets"),
		"GITHUB_STEP_SUMMARY": "", "CLARIFY_LEDGER_KEY": strings.Repeat("k", 40), "CLARIFY_APP_SLUG": "",
		"CLARIFY_ACTION_BUDGET": "", "CLARIFY_CHECKS": ""} {
		t.Setenv(k, v)
	}
	levels := func(level string) string {
		t.Setenv("CLARIFY_LOG_LEVEL", level)
		var out, logs bytes.Buffer
		if code := run([]string{"action"}, &out, &logs); code != 0 {
			t.Fatalf("CLARIFY_LOG_LEVEL=%q: exit %d: %s", level, code, out.String())
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var entry struct {
				Level string `json:"level"`
			}
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Level != "" {
				seen[entry.Level] = true
			}
		}
		var got []string
		for _, l := range []string{"debug", "info", "warn", "error"} {
			if seen[l] {
				got = append(got, l)
			}
		}
		return strings.Join(got, ",")
	}
	debug, info, errorOnly := levels("debug"), levels(""), levels("error")
	if !strings.Contains(debug, "debug") || strings.Contains(info, "debug") || errorOnly != "" && errorOnly != "error" {
		t.Errorf("levels logged: debug %q, default %q, error %q; want debug lines only with debug, none below error with error", debug, info, errorOnly)
	}
}

// actionFake is a repository octo/widgets with issue #42 on the in-memory GitHub, served
// on loopback: the fake and its URL.
func actionFake(t *testing.T) (*fakegithub.Server, string) {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{})
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("coder-agent", "Bot")
	fake.OpenIssue("octo/widgets", 42, "Rate limits", "maria")
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return fake, srv.URL
}

// eventFile writes a delivery's payload as the runner's event file in dir: the webhook
// payload without the installation a workflow's payload does not carry.
func eventFile(t *testing.T, dir string, d fakegithub.Delivery) string {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(d.Body, &p); err != nil {
		t.Fatal(err)
	}
	delete(p, "installation")
	raw, _ := json.Marshal(p)
	event := filepath.Join(dir, "event.json")
	if err := os.WriteFile(event, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return event
}
