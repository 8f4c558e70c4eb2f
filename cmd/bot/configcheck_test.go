package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

func TestConfigCheckWarnsOfALabelNamePeopleAlreadyUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clarify.yml")
	if err := os.WriteFile(path, []byte("labels:\n  stale: needs-triage\n  escalated: needs-decision\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fake := fakegithub.New(fakegithub.Options{AppID: 1, AppSlug: "clarify"})
	gh := httptest.NewServer(fake)
	defer gh.Close()
	fake.AddInstallation(1, "octo", "octo/widgets")
	fake.AddUser("maria", "User")
	fake.OpenIssue("octo/widgets", 7, "Crash on start", "maria")
	fake.SetLabel("octo/widgets", "needs-triage", "ededed", "")
	if _, err := gh.Client().Do(labelRequest(t, gh.URL, fake.IssueToken(1))); err != nil {
		t.Fatal(err)
	}

	var out, errs bytes.Buffer
	if code := run([]string{"config", "check", path}, &out, &errs); code != 0 {
		t.Fatalf("offline: exit %d: %s", code, errs.String())
	}
	if got := out.String(); !strings.Contains(got, `labels.stale is "needs-triage", not one of Clarify's own names`) || !strings.Contains(got, "-repo OWNER/REPO") {
		t.Errorf("offline, no note of the label names people may use:\n%s", got)
	}

	t.Setenv("GITHUB_TOKEN", fake.IssueToken(1))
	// The flags are taken on either side of FILE.
	for _, args := range [][]string{{"-repo", "octo/widgets", "-api", gh.URL, path}, {path, "-repo", "octo/widgets", "-api", gh.URL}} {
		out.Reset()
		if code := run(append([]string{"config", "check"}, args...), &out, &errs); code != 0 {
			t.Fatalf("bot config check %s: exit %d: %s", strings.Join(args, " "), code, errs.String())
		}
		checkLabelLookup(t, out.String())
	}
}

// checkLabelLookup checks what -repo said of the two label names.
func checkLabelLookup(t *testing.T, got string) {
	t.Helper()
	if !strings.Contains(got, `warning: labels.stale "needs-triage" is already on issues of octo/widgets (#7 among them)`) {
		t.Errorf("-repo: no warning that needs-triage is in use:\n%s", got)
	}
	if !strings.Contains(got, `labels.escalated "needs-decision": on no issue of octo/widgets yet`) {
		t.Errorf("-repo: needs-decision is on no issue:\n%s", got)
	}
	if strings.Contains(got, "clarification:active") {
		t.Errorf("-repo: the default name is Clarify's own, and needs no word:\n%s", got)
	}
}

// labelRequest puts needs-triage on octo/widgets#7, as a maintainer would.
func labelRequest(t *testing.T, api, token string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, api+"/repos/octo/widgets/issues/7/labels", strings.NewReader(`["needs-triage"]`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	return req
}

func TestConfigCheckKnowsRelations(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.yml"), filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(good, []byte("relations: blocked-by\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("sla: 30m\nrelations: blocked_by\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"config", "check", good}, &out, &errs); code != 0 {
		t.Fatalf("relations: blocked-by: exit %d: %s", code, errs.String())
	}
	if got := out.String(); !strings.Contains(got, "relations: blocked-by: each blocking clarification opens a decision issue, which the issue is blocked by") {
		t.Errorf("bot config check does not say what relations: blocked-by does:\n%s", got)
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"config", "check", bad}, &out, &errs); code != 1 {
		t.Fatalf("relations: blocked_by: exit %d, want 1", code)
	}
	if got := errs.String(); !strings.Contains(got, `line 2: relations: "blocked_by" is not a choice: did you mean "blocked-by"?`) {
		t.Errorf("the misspelt value is not refused with its line:\n%s", got)
	}
}

func TestConfigCheckKnowsInheritedDecisions(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.yml"), filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(good, []byte("decisions:\n  inherit: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("decisions:\n  inherit: octo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"config", "check", good}, &out, &errs); code != 0 {
		t.Fatalf("decisions.inherit: true: exit %d: %s", code, errs.String())
	}
	if got := out.String(); !strings.Contains(got, "decisions.inherit: the decisions of the organisation's .github repository are offered too") {
		t.Errorf("bot config check does not say what decisions.inherit: true does:\n%s", got)
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"config", "check", bad}, &out, &errs); code != 1 {
		t.Fatalf("decisions.inherit: octo: exit %d, want 1", code)
	}
	if got := errs.String(); !strings.Contains(got, `line 2: decisions.inherit: "octo" is not true, false or a repository`) {
		t.Errorf("an owner without a repository is not refused with its line:\n%s", got)
	}
}
