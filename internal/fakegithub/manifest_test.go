package fakegithub

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-github/v60/github"
)

// manifestFixture is GitHub split as on the internet: a web server for the browser's
// pages and an API server, with a client that follows no redirect so that each step shows.
type manifestFixture struct {
	api     *Server
	m       *Manifests
	web     *httptest.Server
	apiSrv  *httptest.Server
	browser *http.Client
	gh      *github.Client
}

func newManifestFixture(t *testing.T) *manifestFixture {
	t.Helper()
	api := New(Options{})
	m := NewManifests(api, "alice")
	f := &manifestFixture{api: api, m: m, web: httptest.NewServer(m.Web()), apiSrv: httptest.NewServer(m.API())}
	t.Cleanup(f.web.Close)
	t.Cleanup(f.apiSrv.Close)
	f.browser = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f.gh = github.NewClient(nil)
	f.gh.BaseURL, _ = url.Parse(f.apiSrv.URL + "/")
	return f
}

const testManifest = `{"name":"Clarify Test","url":"https://example.org","hook_attributes":{"url":"https://hooks.example.org/api/github/hook"},` +
	`"redirect_url":"http://127.0.0.1:9/callback?keep=1","public":false,"default_permissions":{"issues":"write","metadata":"read"},"default_events":["issues"]}`

// register posts the manifest to path with state, then clicks the confirmation's button,
// and returns where GitHub sent the browser.
func (f *manifestFixture) register(t *testing.T, path, manifest, state string) *url.URL {
	t.Helper()
	resp, err := f.browser.PostForm(f.web.URL+path+"?state="+url.QueryEscape(state), url.Values{"manifest": {manifest}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "Create GitHub App") {
		t.Fatalf("confirmation page: %d\n%s", resp.StatusCode, page)
	}
	token := between(string(page), `name="pending" value="`, `"`)
	resp, err = f.browser.PostForm(f.web.URL+"/settings/apps/new/confirm", url.Values{"pending": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("create: status %d, want 302", resp.StatusCode)
	}
	to, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return to
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	v, _, _ := strings.Cut(rest, to)
	return v
}

func TestManifestFlowRedirectsWithCodeAndStateThenConvertsOnce(t *testing.T) {
	f := newManifestFixture(t)
	to := f.register(t, "/settings/apps/new", testManifest, "st4te")
	q := to.Query()
	if to.Host != "127.0.0.1:9" || to.Path != "/callback" || q.Get("state") != "st4te" || q.Get("keep") != "1" || q.Get("code") == "" {
		t.Fatalf("redirected to %s, want the redirect_url with its query, code and state", to)
	}

	cfg, resp, err := f.gh.Apps.CompleteAppManifest(context.Background(), q.Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("conversion status %d, want 201", resp.StatusCode)
	}
	apps := f.m.Apps()
	if len(apps) != 1 {
		t.Fatalf("registered %d apps, want 1", len(apps))
	}
	checkConversion(t, f, cfg, apps[0])
	checkCodeConvertsOnce(t, f, q.Get("code"))
}

// checkConversion wants the conversion's answer cfg to be the app a the fake registered.
func checkConversion(t *testing.T, f *manifestFixture, cfg *github.AppConfig, a RegisteredApp) {
	t.Helper()
	if cfg.GetID() != FirstManifestAppID || cfg.GetSlug() != "clarify-test" || cfg.GetName() != "Clarify Test" ||
		cfg.GetOwner().GetLogin() != "alice" || cfg.GetWebhookSecret() != a.WebhookSecret || a.WebhookSecret == "" ||
		cfg.GetClientID() == "" || cfg.GetClientSecret() == "" || cfg.GetHTMLURL() != f.web.URL+"/apps/clarify-test" {
		t.Errorf("conversion answered %+v", cfg)
	}
	checkRegistered(t, cfg.GetPEM(), a)
}

// checkRegistered wants pemKey to be the key the registered app a remembers, and a to be
// what testManifest asked for.
func checkRegistered(t *testing.T, pemKey string, a RegisteredApp) {
	t.Helper()
	block, _ := pem.Decode([]byte(pemKey))
	if block == nil {
		t.Fatalf("pem %q does not decode", pemKey)
	}
	key, err := x509.ParsePKCS1PrivateKey(block.Bytes)
	if err != nil || a.Key == nil || !key.Equal(a.Key) {
		t.Errorf("pem is not the key the fake remembers (parse error %v)", err)
	}
	if a.Permissions["issues"] != "write" || len(a.Events) != 1 || a.HookURL != "https://hooks.example.org/api/github/hook" || a.Manifest != testManifest {
		t.Errorf("registered %+v, not what the manifest asked", a)
	}
}

// checkCodeConvertsOnce wants code, already converted, and an unknown code both refused
// with 404, and all three conversion calls logged.
func checkCodeConvertsOnce(t *testing.T, f *manifestFixture, code string) {
	t.Helper()
	_, _, err := f.gh.Apps.CompleteAppManifest(context.Background(), code)
	var ghErr *github.ErrorResponse
	if !errors.As(err, &ghErr) || ghErr.Response.StatusCode != http.StatusNotFound {
		t.Errorf("second conversion of one code: %v, want 404", err)
	}
	_, _, err = f.gh.Apps.CompleteAppManifest(context.Background(), "0123abcd")
	if !errors.As(err, &ghErr) || ghErr.Response.StatusCode != http.StatusNotFound {
		t.Errorf("unknown code: %v, want 404", err)
	}
	if n := f.api.CountRequests(RouteManifestConversion); n != 3 {
		t.Errorf("logged %d conversions, want 3\n%s", n, f.api.Summary())
	}
}

func TestManifestFlowForAnOrganizationMakesItTheOwner(t *testing.T) {
	f := newManifestFixture(t)
	to := f.register(t, "/organizations/octo/settings/apps/new", testManifest, "")
	if to.Query().Has("state") {
		t.Errorf("redirected to %s: a state nobody sent", to)
	}
	cfg, _, err := f.gh.Apps.CompleteAppManifest(context.Background(), to.Query().Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GetOwner().GetLogin() != "octo" || cfg.GetOwner().GetType() != "Organization" {
		t.Errorf("owner %+v, want the organization octo", cfg.GetOwner())
	}
}

func TestManifestFlowRefusesWhatGitHubRefuses(t *testing.T) {
	f := newManifestFixture(t)
	for name, manifest := range map[string]string{
		"notJSON":       `name: Clarify`,
		"noName":        `{"url":"https://x.org","hook_attributes":{"url":"https://x.org/h"},"redirect_url":"http://127.0.0.1/cb"}`,
		"noHookURL":     `{"name":"A","url":"https://x.org","hook_attributes":{},"redirect_url":"http://127.0.0.1/cb"}`,
		"noRedirectURL": `{"name":"A","url":"https://x.org","hook_attributes":{"url":"https://x.org/h"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			resp, err := f.browser.PostForm(f.web.URL+"/settings/apps/new", url.Values{"manifest": {manifest}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("status %d, want 422", resp.StatusCode)
			}
		})
	}
	f.register(t, "/settings/apps/new", testManifest, "s")
	resp, err := f.browser.PostForm(f.web.URL+"/settings/apps/new", url.Values{"manifest": {testManifest}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp, err = f.browser.PostForm(f.web.URL+"/settings/apps/new/confirm", url.Values{"pending": {between(string(page), `name="pending" value="`, `"`)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || len(f.m.Apps()) != 1 {
		t.Errorf("a second app of the same name: status %d and %d apps, want 422 and 1", resp.StatusCode, len(f.m.Apps()))
	}
}
