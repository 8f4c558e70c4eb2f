package asker_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/asker"
)

// TestAPIFromEnvKeepsATokenWithItsHost (issue 33): GH_HOST reaches its own API, as gh does;
// GITHUB_API_URL names its host; the two naming different hosts is an error naming both.
func TestAPIFromEnvKeepsATokenWithItsHost(t *testing.T) {
	cases := map[string]struct {
		env       map[string]string
		api, host string
	}{
		"nothingSet":        {nil, "https://api.github.com/", "github.com"},
		"ghHostServer":      {map[string]string{"GH_HOST": "ghe.example.com"}, "https://ghe.example.com/api/v3/", "ghe.example.com"},
		"ghHostTenant":      {map[string]string{"GH_HOST": "octocorp.ghe.com"}, "https://api.octocorp.ghe.com/", "octocorp.ghe.com"},
		"actionsJobOnGHES":  {map[string]string{"GITHUB_API_URL": "https://ghe.example.com/api/v3"}, "https://ghe.example.com/api/v3", "ghe.example.com"},
		"bothNameOneHost":   {map[string]string{"GH_HOST": "GitHub.com", "GITHUB_API_URL": "https://api.github.com"}, "https://api.github.com", "github.com"},
		"bothNameOneTenant": {map[string]string{"GH_HOST": "octocorp.ghe.com", "GITHUB_API_URL": "https://api.octocorp.ghe.com/"}, "https://api.octocorp.ghe.com/", "octocorp.ghe.com"},
	}
	for name, tc := range cases {
		api, host, err := asker.APIFromEnv(func(k string) string { return tc.env[k] })
		if err != nil || api != tc.api || host != tc.host {
			t.Errorf("%s: APIFromEnv = %q, %q, %v; want %q, %q", name, api, host, err, tc.api, tc.host)
		}
	}
	env := map[string]string{"GH_HOST": "ghe.example.com", "GITHUB_API_URL": "https://api.github.com/"}
	if _, _, err := asker.APIFromEnv(func(k string) string { return env[k] }); err == nil ||
		!strings.Contains(err.Error(), "ghe.example.com") || !strings.Contains(err.Error(), "github.com") {
		t.Errorf("GH_HOST and GITHUB_API_URL on two hosts: %v; want an error naming both", err)
	}
}

// TestBotAsksGhForTheAPIsHostsToken (issue 33): with no token in the environment, bot asks
// gh for its token of the host whose API it reaches, never for gh's default host's.
func TestBotAsksGhForTheAPIsHostsToken(t *testing.T) {
	dir := t.TempDir()
	gh := "#!/bin/sh\n[ \"$*\" = 'auth token --hostname octocorp.ghe.com' ] && echo ghu_tenant && exit 0\necho ghu_default\n"
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	env := map[string]string{"GITHUB_API_URL": "https://api.octocorp.ghe.com/"}
	token, source, err := asker.TokenFromEnv(func(k string) string { return env[k] })
	if err != nil || token != "ghu_tenant" || source != "gh" {
		t.Errorf("TokenFromEnv with GITHUB_API_URL on octocorp.ghe.com: %q %q %v; want gh's token for octocorp.ghe.com", token, source, err)
	}
	env = map[string]string{"GH_HOST": "ghe.example.com", "GITHUB_API_URL": "https://api.octocorp.ghe.com/"}
	if token, _, err := asker.TokenFromEnv(func(k string) string { return env[k] }); err == nil || token != "" {
		t.Errorf("TokenFromEnv with GH_HOST and GITHUB_API_URL on two hosts: %q, %v; want no token and an error", token, err)
	}
}
