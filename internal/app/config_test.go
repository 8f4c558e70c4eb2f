package app_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/repoconfig"
)

func TestConfigRefusesToStartWithoutAWebhookSecret(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "")
	_, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n"))
	if err == nil || !strings.Contains(err.Error(), "webhook_secret") {
		t.Fatalf("err = %v, want a refusal naming webhook_secret", err)
	}
}

func TestConfigIsStrictAndTheEnvironmentWins(t *testing.T) {
	if _, err := app.LoadConfig(writeConfig(t, "server:\n  prot: 9000\n")); err == nil || !strings.Contains(err.Error(), "prot") {
		t.Errorf("an unknown key must be an error, got %v", err)
	}
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "from-env")
	t.Setenv("GITHUB_V3_API_URL", "http://127.0.0.1:9/")
	t.Setenv("SERVER_PORT", "9090")
	c, err := app.LoadConfig(writeConfig(t, "github:\n  app:\n    integration_id: 7\n    private_key: x\n    webhook_secret: from-file\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Github.App.WebhookSecret != "from-env" || c.Github.V3APIURL != "http://127.0.0.1:9/" || c.Server.Port != 9090 {
		t.Errorf("environment did not override the file: %+v", c.Server)
	}
	if c.Server.Address != app.DefaultAddress || c.Clarify.AppSlug != app.DefaultAppSlug || c.Clarify.Workers != app.DefaultWorkers {
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
	if _, err := app.LoadConfig(path); err != nil {
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

func TestConfigDurationsReadAsGoDurations(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "s")
	t.Setenv("GITHUB_APP_INTEGRATION_ID", "7")
	t.Setenv("GITHUB_APP_PRIVATE_KEY", "pem")
	c, err := app.LoadConfig(writeConfig(t, "clarify:\n  handler_timeout: 2m\n  sweep_interval: 1h30s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Clarify.HandlerTimeout != 2*time.Minute || c.Clarify.SweepInterval != time.Hour+30*time.Second {
		t.Errorf("handler_timeout %v, sweep_interval %v: want 2m0s and 1h0m30s", c.Clarify.HandlerTimeout, c.Clarify.SweepInterval)
	}
	for name, body := range map[string]string{
		"notADuration": "clarify:\n  handler_timeout: soon\n",
		// A bare number would be nanoseconds: a mistake, refused rather than obeyed.
		"bareNumber": "clarify:\n  handler_timeout: 120\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := app.LoadConfig(writeConfig(t, body)); err == nil || !strings.Contains(err.Error(), "line 2") {
				t.Errorf("err = %v, want one naming line 2", err)
			}
		})
	}
}

func TestEmptyConfigFileMeansDefaults(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "s")
	t.Setenv("GITHUB_APP_INTEGRATION_ID", "7")
	t.Setenv("GITHUB_APP_PRIVATE_KEY", "pem")
	c, err := app.LoadConfig(writeConfig(t, "# nothing set here\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Clarify.HandlerTimeout != handlers.DefaultHandlerTimeout || c.Server.Port != app.DefaultPort {
		t.Errorf("defaults not applied: %+v %+v", c.Server, c.Clarify)
	}
}
