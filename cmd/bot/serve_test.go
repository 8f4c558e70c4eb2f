package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/repoconfig"
)

func TestConfigRefusesToStartWithoutAWebhookSecret(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "")
	path := writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n")
	_, err := LoadConfig(path)
	if err == nil || !strings.Contains(err.Error(), "webhook_secret") {
		t.Fatalf("err = %v, want a refusal naming webhook_secret", err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"serve", "-c", path}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "webhook_secret") {
		t.Errorf("serve exited %d (%s), want a failure naming webhook_secret", code, errs.String())
	}
}

func TestConfigIsStrictAndTheEnvironmentWins(t *testing.T) {
	if _, err := LoadConfig(writeConfig(t, "server:\n  prot: 9000\n")); err == nil || !strings.Contains(err.Error(), "prot") {
		t.Errorf("an unknown key must be an error, got %v", err)
	}
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "from-env")
	t.Setenv("GITHUB_V3_API_URL", "http://127.0.0.1:9/")
	t.Setenv("SERVER_PORT", "9090")
	c, err := LoadConfig(writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n    webhook_secret: from-file\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Github.App.WebhookSecret != "from-env" || c.Github.V3APIURL != "http://127.0.0.1:9/" || c.Server.Port != 9090 {
		t.Errorf("environment did not override the file: %+v", c.Server)
	}
	if c.Server.Address != DefaultAddress || c.Clarify.AppSlug != DefaultAppSlug || c.Clarify.Workers != DefaultWorkers {
		t.Errorf("defaults not applied: %+v %+v", c.Server, c.Clarify)
	}
	if len(c.LedgerKeyBytes()) == 0 || bytes.Equal(c.LedgerKeyBytes(), []byte("from-env")) {
		t.Error("the default ledger key is derived from the secret, not the secret itself")
	}
}

func TestExampleConfigLoads(t *testing.T) {
	b, err := os.ReadFile("../../config.example.yml")
	if err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, strings.Replace(strings.Replace(string(b), `webhook_secret: ""`, `webhook_secret: "s"`, 1),
		"integration_id: 0", "integration_id: 1", 1))
	t.Setenv("GITHUB_APP_PRIVATE_KEY", "pem")
	if _, err := LoadConfig(path); err != nil {
		t.Fatalf("config.example.yml does not load: %v", err)
	}
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHealthz(t *testing.T) {
	h := newHarness(t)
	resp, err := h.AppServer.Client().Get(h.AppServer.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d", resp.StatusCode)
	}
}

func TestBodyOverGitHubsCapIsRefused(t *testing.T) {
	h := newHarness(t)
	req, _ := http.NewRequest(http.MethodPost, h.HookURL(), bytes.NewReader(make([]byte, MaxWebhookBody+1)))
	req.Header.Set("X-GitHub-Event", "issue_comment")
	resp, err := h.AppServer.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d, want 413", resp.StatusCode)
	}
}

func TestFailedWriteHealsOnRedeliveryWithoutPostingTwice(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	// GitHub fails the status update of the answer's run: the delivery fails after the
	// reaction went out.
	w.h.Fake.FailNext("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", http.StatusBadGateway, 1)
	d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
	w.send(d)
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("status %s: the failed save should have left the ledger as it was", c.Status)
	}
	// GitHub does not retry; the maintainer redelivers by hand, with the same id.
	if _, err := w.h.Deliver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status %s after redelivery, want answered", c.Status)
	}
	if n := w.botComments("Clarification needed"); n != 1 {
		t.Errorf("round comment posted %d times", n)
	}
}

func TestALostDeliveryHealsOnTheNextEvent(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.Comment(repo, 42, "maria", "Per key.") // its delivery never arrives
	w.comment("coder-agent", "/clarify followup CLR-42-001 Which limit?")
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Round != 2 || c.Status != clarify.Pending || c.Thread[1].Text != "Per key." {
		t.Fatalf("the next event did not fold in the lost answer first: %+v", c)
	}
}

func TestReadmeDocumentsEveryRepositoryKey(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), repoconfig.Reference()) {
		t.Error("README.md lacks repoconfig.Reference(): paste the table of keys again")
	}
	for _, key := range []string{"sweep_interval", "sweep_budget", "writes_per_minute", "ledger_key", "workers", "handler_timeout", "log_level", "app_slug"} {
		if !strings.Contains(string(b), "clarify."+key) {
			t.Errorf("README.md does not document clarify.%s", key)
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

func TestARestartLosesNoTimer(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	// A new process: nothing in memory but the config.
	restarted, err := NewApp(w.h.Config, newLogger(io.Discard, "info"), w.h.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	w.h.Fake.Advance(31 * time.Minute)
	if _, err := restarted.Sweep.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
		t.Errorf("after a restart and 31 minutes: %s, want stale", c.Status)
	}
}

func TestSweepCommandRunsOneSweep(t *testing.T) {
	w := &world{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	for k, v := range map[string]string{
		"GITHUB_V3_API_URL":         w.h.Config.Github.V3APIURL,
		"GITHUB_APP_INTEGRATION_ID": "4242",
		"GITHUB_APP_WEBHOOK_SECRET": string(w.h.Secret),
		"GITHUB_APP_PRIVATE_KEY":    w.h.Config.Github.App.PrivateKey,
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
