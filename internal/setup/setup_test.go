package setup

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// gitHub is the in-memory GitHub, its web pages and its API each on a server of their own.
type gitHub struct {
	api       *fakegithub.Server
	manifests *fakegithub.Manifests
	web, rest *httptest.Server
}

func newGitHub(t *testing.T) *gitHub {
	t.Helper()
	g := &gitHub{api: fakegithub.New(fakegithub.Options{})}
	g.manifests = fakegithub.NewManifests(g.api, "alice")
	g.web = httptest.NewServer(g.manifests.Web())
	g.rest = httptest.NewServer(g.manifests.API())
	t.Cleanup(g.web.Close)
	t.Cleanup(g.rest.Close)
	return g
}

// options registers the repository's own app.yml on g, writing into a fresh directory.
func (g *gitHub) options(t *testing.T) Options {
	return Options{
		WebURL: g.web.URL, APIURL: g.rest.URL + "/",
		WebhookURL:   "https://clarify.test.example.org",
		ManifestPath: filepath.Join("..", "..", "app.yml"),
		ConfigPath:   filepath.Join(t.TempDir(), "config.yml"),
	}
}

// startFlow serves a Flow on loopback, as `bot setup` does.
func startFlow(t *testing.T, opts Options) (*Flow, *httptest.Server) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	f, err := New(opts, "http://"+srv.Listener.Addr().String())
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	srv.Config.Handler = f
	srv.Start()
	t.Cleanup(srv.Close)
	return f, srv
}

// noRedirects is a browser that shows each redirect instead of following it.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := noRedirects.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func attr(page, from string) string {
	_, rest, _ := strings.Cut(page, from)
	v, _, _ := strings.Cut(rest, `"`)
	return html.UnescapeString(v)
}

// clickThrough does what the browser does: posts the start page's form to GitHub, clicks
// "Create GitHub App" and returns where GitHub sends the browser back.
func clickThrough(t *testing.T, start string) string {
	t.Helper()
	_, page := get(t, start)
	resp, err := noRedirects.PostForm(attr(page, `action="`), url.Values{"manifest": {attr(page, `name="manifest" value="`)}})
	if err != nil {
		t.Fatal(err)
	}
	confirm, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GitHub refused the manifest: %d\n%s", resp.StatusCode, confirm)
	}
	base, _ := url.Parse(resp.Request.URL.String())
	resp, err = noRedirects.PostForm(base.Scheme+"://"+base.Host+"/settings/apps/new/confirm", url.Values{"pending": {attr(string(confirm), `name="pending" value="`)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("GitHub did not create the app: %d", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}

func TestStartPagePostsAppYmlAsTheManifestWithARedirectBack(t *testing.T) {
	g := newGitHub(t)
	f, srv := startFlow(t, g.options(t))
	status, page := get(t, srv.URL+"/")
	if status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	action := attr(page, `action="`)
	if action != g.web.URL+"/settings/apps/new?state="+f.state {
		t.Errorf("form posts to %q, want GitHub's new-app page with the state", action)
	}
	var m struct {
		Name           string            `json:"name"`
		RedirectURL    string            `json:"redirect_url"`
		Public         bool              `json:"public"`
		HookAttributes map[string]any    `json:"hook_attributes"`
		Permissions    map[string]string `json:"default_permissions"`
		Events         []string          `json:"default_events"`
	}
	if err := json.Unmarshal([]byte(attr(page, `name="manifest" value="`)), &m); err != nil {
		t.Fatalf("manifest field: %v\n%s", err, page)
	}
	if m.Name != "Clarify" || m.RedirectURL != srv.URL+"/callback" || m.Public ||
		m.HookAttributes["url"] != "https://clarify.test.example.org/api/github/hook" || m.HookAttributes["active"] != true ||
		m.Permissions["issues"] != "write" || m.Permissions["members"] != "read" || strings.Join(m.Events, ",") != "issue_comment,issues,pull_request,repository_dispatch,issue_dependencies,sub_issues" {
		t.Errorf("manifest %+v is not app.yml with this run's URLs", m)
	}
}

func TestOrganizationFlagPostsToTheOrganizationsPage(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	opts.Org = "octo"
	f, srv := startFlow(t, opts)
	_, page := get(t, srv.URL+"/")
	if got, want := attr(page, `action="`), g.web.URL+"/organizations/octo/settings/apps/new?state="+f.state; got != want {
		t.Errorf("form posts to %q, want %q", got, want)
	}
}

func TestCallbackWritesTheConfigAndTheKey(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	f, srv := startFlow(t, opts)
	back := clickThrough(t, srv.URL+"/")
	if !strings.HasPrefix(back, srv.URL+"/callback?") {
		t.Fatalf("GitHub sent the browser to %q", back)
	}
	status, page := get(t, back)
	if status != http.StatusOK || !strings.Contains(page, "Registered Clarify") || !strings.Contains(page, g.web.URL+"/apps/clarify/installations/new") {
		t.Fatalf("callback: %d\n%s", status, page)
	}
	res, done, err := f.Outcome()
	if !done || err != nil {
		t.Fatalf("outcome: done %v, %v", done, err)
	}
	registered := g.manifests.Apps()[0]
	if strings.Contains(page, registered.WebhookSecret) || strings.Contains(page, "PRIVATE KEY") {
		t.Error("the page shows a secret")
	}
	checkWritten(t, g, opts, res, registered)

	// A reload of the callback exchanges nothing more.
	if status, page := get(t, back); status != http.StatusOK || !strings.Contains(page, "Registered Clarify") {
		t.Errorf("reload: %d\n%s", status, page)
	}
	if n := g.api.CountRequests(fakegithub.RouteManifestConversion); n != 1 {
		t.Errorf("%d code exchanges, want 1", n)
	}
}

// checkWritten fails t unless the config at res.ConfigPath holds the registered app and
// where to reach GitHub, and the config and the key are mode 0600.
func checkWritten(t *testing.T, g *gitHub, opts Options, res Result, registered fakegithub.RegisteredApp) {
	t.Helper()
	cfg, err := app.LoadConfig(res.ConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Github.App.IntegrationID != registered.ID || cfg.Github.App.WebhookSecret != registered.WebhookSecret ||
		cfg.Clarify.AppSlug != "clarify" || cfg.Github.V3APIURL != g.rest.URL+"/" || cfg.Github.WebURL != g.web.URL ||
		cfg.PrivateKeyFile != filepath.Join(filepath.Dir(opts.ConfigPath), "config.private-key.pem") {
		t.Errorf("config %+v does not hold the registered app %+v", cfg.Github, registered)
	}
	for _, p := range []string{res.ConfigPath, res.KeyPath} {
		st, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v, want a file of mode 0600", p, err)
			continue
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", p, st.Mode().Perm())
		}
	}
}

func TestCallbackWithAnotherStateIsRefusedAndNothingIsExchanged(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	f, srv := startFlow(t, opts)
	back, _ := url.Parse(clickThrough(t, srv.URL+"/"))
	q := back.Query()
	for name, state := range map[string]string{"other": "0000", "none": ""} {
		t.Run(name, func(t *testing.T) {
			q.Set("state", state)
			back.RawQuery = q.Encode()
			status, page := get(t, back.String())
			if status != http.StatusForbidden || !strings.Contains(page, "not the one bot setup gave GitHub") {
				t.Errorf("status %d\n%s", status, page)
			}
		})
	}
	if n := g.api.CountRequests(fakegithub.RouteManifestConversion); n != 0 {
		t.Errorf("exchanged the code %d times with a foreign state", n)
	}
	if _, done, _ := f.Outcome(); done {
		t.Error("the flow ended")
	}
	if _, err := os.Stat(opts.ConfigPath); !os.IsNotExist(err) {
		t.Errorf("config written: %v", err)
	}
}

func TestFailedCodeExchangeIsShownPlainlyAndWritesNothing(t *testing.T) {
	g := newGitHub(t)
	for name, tc := range map[string]struct {
		api  string
		code string
		want string
	}{
		"unknownCode": {g.rest.URL + "/", "deadbeef", "GitHub answered 404 Not Found (the code is unknown, already used, or more than an hour old"},
		"serverError": {"", "deadbeef", "GitHub answered 500"},
		"notACode":    {g.rest.URL + "/", "../../app", "No code from GitHub"},
	} {
		t.Run(name, func(t *testing.T) {
			opts := g.options(t)
			opts.APIURL = tc.api
			if tc.api == "" {
				broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
					http.Error(w, `{"message":"Server Error"}`, http.StatusInternalServerError)
				}))
				t.Cleanup(broken.Close)
				opts.APIURL = broken.URL + "/"
			}
			f, srv := startFlow(t, opts)
			status, page := get(t, srv.URL+"/callback?"+url.Values{"state": {f.state}, "code": {tc.code}}.Encode())
			if status < 400 || !strings.Contains(html.UnescapeString(page), tc.want) {
				t.Errorf("status %d, want an error page saying %q:\n%s", status, tc.want, page)
			}
			if _, done, _ := f.Outcome(); done {
				t.Error("the flow ended: the user could not try again")
			}
			if _, err := os.Stat(opts.ConfigPath); !os.IsNotExist(err) {
				t.Errorf("config written: %v", err)
			}
		})
	}
}

func TestExistingFilesAreNotOverwrittenWithoutForce(t *testing.T) {
	for _, which := range []string{"config", "key"} {
		t.Run(which, func(t *testing.T) {
			g := newGitHub(t)
			opts := g.options(t)
			existing := opts.ConfigPath
			if which == "key" {
				existing = KeyPath(opts.ConfigPath)
			}
			if err := os.WriteFile(existing, []byte("keep me\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := New(opts, "http://127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "exists: bot setup does not overwrite it") {
				t.Errorf("New: %v, want a refusal", err)
			}
			opts.Force = true
			_, srv := startFlow(t, opts)
			if status, _ := get(t, clickThrough(t, srv.URL+"/")); status != http.StatusOK {
				t.Fatalf("with -force: status %d", status)
			}
			if st, err := os.Stat(existing); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("overwritten %s: %v, mode %v, want 0600", existing, err, st.Mode().Perm())
			}
		})
	}
}

func TestFileCreatedMeanwhileIsNotOverwritten(t *testing.T) {
	g := newGitHub(t)
	opts := g.options(t)
	f, srv := startFlow(t, opts)
	if err := os.WriteFile(opts.ConfigPath, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, page := get(t, clickThrough(t, srv.URL+"/"))
	if status != http.StatusInternalServerError || !strings.Contains(page, "not all written") {
		t.Errorf("status %d\n%s", status, page)
	}
	if b, _ := os.ReadFile(opts.ConfigPath); string(b) != "keep me\n" {
		t.Errorf("config overwritten: %q", b)
	}
	// The key GitHub gave only once is kept.
	if _, err := os.Stat(KeyPath(opts.ConfigPath)); err != nil {
		t.Error(err)
	}
	if _, done, err := f.Outcome(); !done || err == nil {
		t.Errorf("outcome: done %v, err %v; want done with the error", done, err)
	}
}

func TestPageAnswersOnlyItsOwnHost(t *testing.T) {
	g := newGitHub(t)
	_, srv := startFlow(t, g.options(t))
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	req.Host = "rebound.example.org"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("status %d, want 421", resp.StatusCode)
	}
}

func TestNewRefusesWhatWouldRegisterABrokenApp(t *testing.T) {
	g := newGitHub(t)
	for name, tc := range map[string]struct {
		edit func(*Options)
		base string
		want string
	}{
		"placeholderWebhook": {func(o *Options) { o.WebhookURL = "" }, "", "placeholder: pass -webhook-url"},
		"webhookNotHTTP":     {func(o *Options) { o.WebhookURL = "ftp://x.org/h" }, "", "not an http(s) URL"},
		"notLoopback":        {func(*Options) {}, "http://192.0.2.1:8080", "loopback"},
		"noManifest":         {func(o *Options) { o.ManifestPath = "nope.yml" }, "", "nope.yml"},
		"badOrg":             {func(o *Options) { o.Org = "../x" }, "", "-org"},
		"noDirectory":        {func(o *Options) { o.ConfigPath = "/nonexistent/dir/c.yml" }, "", "does not exist"},
	} {
		t.Run(name, func(t *testing.T) {
			opts := g.options(t)
			tc.edit(&opts)
			base := tc.base
			if base == "" {
				base = "http://127.0.0.1:1"
			}
			if _, err := New(opts, base); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestGraphQLURLSitsBesideTheRESTAPI(t *testing.T) {
	for in, want := range map[string]string{
		"https://ghe.example.org/api/v3/": "https://ghe.example.org/api/graphql",
		"http://127.0.0.1:4000/":          "http://127.0.0.1:4000/graphql",
	} {
		if got := graphQLURL(in); got != want {
			t.Errorf("graphQLURL(%q) = %q, want %q", in, got, want)
		}
	}
}
