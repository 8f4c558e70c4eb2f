package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/replay"
)

// These tests cover the subcommands' wiring: flags, exit codes, what reaches stdout and
// stderr. What the app does is tested beside the code that does it (handlers, internal/app,
// internal/replay).

func TestDemoReplayPrintsTheIssue(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"replay"}, &out, &errs); code != 0 {
		t.Fatalf("replay exited %d: %s", code, errs.String())
	}
	for _, want := range []string{"CLR-42-001 · round 1/5", "CLR-42-001 · round 2/5", "resolved", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("replay output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestConfigCheck(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"config", "check", "../../repoconfig/testdata/full.yml"}, &out, &errs); code != 0 {
		t.Fatalf("full.yml: exit %d: %s", code, errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"config", "check", "../../repoconfig/testdata/broken.yml"}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "line 3") {
		t.Errorf("broken.yml: exit %d, %q: want a failure naming lines", code, errs.String())
	}
}

func TestServeRefusesToStartWithoutAWebhookSecret(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "")
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte("github:\n  app:\n    integration_id: 7\n    private_key: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"serve", "-c", path}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "webhook_secret") {
		t.Errorf("serve exited %d (%s), want a failure naming webhook_secret", code, errs.String())
	}
}

func TestSweepCommandRunsOneSweep(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ask := "user maria write\nbot coder-agent\nissue #42 \"Rate-limit the public API\" by maria\n" +
		"coder-agent comments on #42: /clarify @maria Per key or per IP?\n"
	if err := replay.PlayScenario(context.Background(), h, "ask", strings.NewReader(ask)); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_V3_API_URL":         h.Config.Github.V3APIURL,
		"GITHUB_APP_INTEGRATION_ID": strconv.FormatInt(h.Config.Github.App.IntegrationID, 10),
		"GITHUB_APP_WEBHOOK_SECRET": string(h.Secret),
		"GITHUB_APP_PRIVATE_KEY":    h.Config.Github.App.PrivateKey,
	} {
		t.Setenv(k, v)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"sweep"}, &out, &errs); code != 0 {
		t.Fatalf("bot sweep exited %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), `"issues":1`) {
		t.Errorf("the sweep log does not report the issue it swept: %s", out.String())
	}
	// What this proves is the wiring: config from the environment, the app JWT, the
	// installations, the active issues. The deadlines themselves are tested with the
	// virtual clock elsewhere; this command runs on the wall clock.
}
