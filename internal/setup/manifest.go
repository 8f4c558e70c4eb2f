package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	clarifyapp "github.com/clarify-app/clarify"
	"github.com/clarify-app/clarify/internal/cli"
)

// manifest is app.yml as a generic tree, so that every field GitHub's manifest knows
// reaches GitHub, including those this package does not look at.
type manifest map[string]any

// builtIn names the manifest built into the binary in messages.
const builtIn = "app.yml (built in)"

// readManifest reads the YAML manifest: the file at path when one is named, else app.yml in
// the working directory when there is one (an operator's own, beside the binary), else the
// app.yml built into the binary; and checks the fields GitHub refuses to go without, in the
// file's words.
func readManifest(path string) (manifest, error) {
	b, name, err := manifestBytes(path)
	if err != nil {
		return nil, err
	}
	return parseManifest(b, name)
}

// manifestBytes finds the manifest as readManifest says; name is what messages call it.
func manifestBytes(path string) (_ []byte, name string, _ error) {
	if path == "" {
		b, err := os.ReadFile(DefaultManifest)
		if errors.Is(err, fs.ErrNotExist) {
			return clarifyapp.Manifest, builtIn, nil
		}
		return b, DefaultManifest, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("no GitHub App manifest at %s: name another file with -manifest, or leave it out for the app.yml built into bot", path)
	}
	return b, path, err
}

// parseManifest checks a manifest read from path.
func parseManifest(b []byte, path string) (manifest, error) {
	// Into a plain map: yaml.v3 gives nested mappings the type of the outer one.
	var tree map[string]any
	if err := yaml.Unmarshal(b, &tree); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m := manifest(tree)
	if m == nil {
		return nil, fmt.Errorf("%s is empty: it should be a GitHub App manifest such as the repository's app.yml", path)
	}
	if s, _ := m["name"].(string); strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%s: name is missing: GitHub needs the app's name", path)
	}
	if s, _ := m["url"].(string); s == "" {
		return nil, fmt.Errorf("%s: url is missing: GitHub needs the app's homepage", path)
	}
	if _, ok := m["hook_attributes"].(map[string]any); !ok && m["hook_attributes"] != nil {
		return nil, fmt.Errorf("%s: hook_attributes should be a mapping with url and active", path)
	}
	return m, nil
}

// complete fills in what only this run knows: the webhook URL (over app.yml's), the name
// (when given), and the redirect_url GitHub sends the browser back to.
func (m manifest) complete(name, webhookURL, redirectURL string) error {
	if name != "" {
		m["name"] = name
	}
	hook, _ := m["hook_attributes"].(map[string]any)
	if hook == nil {
		hook = map[string]any{"active": true}
		m["hook_attributes"] = hook
	}
	if webhookURL != "" {
		hook["url"] = webhookURL
	}
	current, _ := hook["url"].(string)
	u, err := url.Parse(current)
	switch {
	case current == "":
		return cli.Usagef("setup", "no webhook URL: pass -webhook-url, the public URL where `bot serve` takes GitHub's webhooks, e.g. https://clarify.example.org/api/github/hook")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("webhook URL %q is not an http(s) URL", current)
	case webhookURL == "" && (u.Hostname() == "example.com" || strings.HasSuffix(u.Hostname(), ".example.com")):
		// app.yml ships a placeholder; an app registered with it would send its deliveries
		// nowhere, and nothing would say why.
		return cli.Usagef("setup", "the manifest's webhook URL %s is the example's placeholder: pass -webhook-url, the public URL where `bot serve` takes GitHub's webhooks (its path is /api/github/hook)", current)
	}
	if u.Path == "" || u.Path == "/" {
		// The one path `bot serve` takes deliveries on; a bare host is what people type.
		u.Path = "/api/github/hook"
		hook["url"] = u.String()
	}
	m["redirect_url"] = redirectURL
	return nil
}

func (m manifest) json() ([]byte, error) {
	b, err := json.Marshal(map[string]any(m))
	if err != nil {
		// yaml.v3 makes a map with non-string keys when a mapping has one; JSON has none.
		return nil, fmt.Errorf("the manifest does not convert to JSON: %w", err)
	}
	return b, nil
}

func (m manifest) name() string { s, _ := m["name"].(string); return s }

func (m manifest) hookURL() string {
	hook, _ := m["hook_attributes"].(map[string]any)
	s, _ := hook["url"].(string)
	return s
}

// permissions lists default_permissions as "name: access", sorted, for the page.
func (m manifest) permissions() []string {
	perms, _ := m["default_permissions"].(map[string]any)
	out := make([]string, 0, len(perms))
	for k, v := range perms {
		out = append(out, fmt.Sprintf("%s: %v", k, v))
	}
	sort.Strings(out)
	return out
}

func (m manifest) events() []string {
	evs, _ := m["default_events"].([]any)
	out := make([]string, 0, len(evs))
	for _, e := range evs {
		out = append(out, fmt.Sprint(e))
	}
	return out
}
