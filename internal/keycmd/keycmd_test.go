package keycmd_test

import (
	"bytes"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/keycmd"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/repoconfig"
)

// run runs bot key with args and CLARIFY_LEDGER_KEY set to key.
func run(t *testing.T, key string, args ...string) (out, errs string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	getenv := func(k string) string {
		if k == "CLARIFY_LEDGER_KEY" {
			return key
		}
		return ""
	}
	err = keycmd.Run(args, getenv, rand.Reader, &o, &e)
	return o.String(), e.String(), err
}

// TestNewThenPublicGivesTheSameKey: the secret bot key new prints is all stdout holds (it
// goes straight into gh secret set), and bot key public, given that secret, prints the
// very config line bot key new wrote; the config parses, and a comment the workflow signs
// under that secret verifies under the key it lists.
func TestNewThenPublicGivesTheSameKey(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "clarify.yml")
	if err := os.WriteFile(cfg, []byte("dashboard: true"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret, errs, err := run(t, "", "new", "-config", cfg)
	secret = strings.TrimSpace(secret)
	if err != nil || strings.Contains(secret, "\n") || len(secret) < 32 {
		t.Fatalf("bot key new: %q, stderr %q, %v; want one secret line of 32 characters or more", secret, errs, err)
	}
	line, _, err := run(t, secret, "public")
	if err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(cfg)
	if !strings.Contains(string(written), strings.TrimSpace(line)) || !strings.HasPrefix(string(written), "dashboard: true\n") {
		t.Fatalf("the config reads %q; want it as it was and the line bot key public prints, %q", written, line)
	}
	parsed, err := repoconfig.Parse(written)
	if err != nil || len(parsed.VerifyKeys) != 1 {
		t.Fatalf("the config written: %+v, %v; want one verify key", parsed.VerifyKeys, err)
	}
	priv, _ := render.SigningKey([]byte(secret))
	body := render.SignComment(priv, "octo", "widgets", 42, "status")
	if !parsed.VerifyKeys.Signed("octo", "widgets", 42, body) {
		t.Error("a comment signed under the secret does not verify under the key the config lists")
	}

	// Rotating: the next key joins the list, the old one stays.
	if _, _, err := run(t, "", "new", "-config", cfg); err != nil {
		t.Fatal(err)
	}
	if parsed, err = repoconfig.Parse(mustRead(t, cfg)); err != nil || len(parsed.VerifyKeys) != 2 {
		t.Fatalf("after a rotation the config lists %d keys (%v); want the old and the new", len(parsed.VerifyKeys), err)
	}
}

func TestPublicWithoutTheSecretSaysWhatToSet(t *testing.T) {
	if _, _, err := run(t, "", "public"); err == nil || !strings.Contains(err.Error(), "CLARIFY_LEDGER_KEY is not set") {
		t.Errorf("bot key public with no secret: %v; want what to set", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
