package setup

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/internal/app"
)

// DefaultManifest and DefaultConfig are where `bot setup` reads the manifest and writes
// the config when not told otherwise; with no DefaultManifest in the working directory it
// reads the one built into the binary (clarifyapp.Manifest).
const (
	DefaultManifest = "app.yml"
	DefaultConfig   = "config.yml"
)

// exchangeTimeout bounds the code exchange, so that a GitHub that does not answer leaves a
// page that says so rather than a browser spinning.
const exchangeTimeout = 30 * time.Second

// Options say which GitHub to register the app on, from which manifest, and where to
// write what GitHub returns.
type Options struct {
	// WebURL is GitHub's web address, where the browser posts the manifest (default
	// https://github.com; GitHub Enterprise Server: https://HOST).
	WebURL string
	// APIURL is GitHub's REST API, which exchanges the code (default
	// https://api.github.com/; GitHub Enterprise Server: https://HOST/api/v3/).
	APIURL string
	// Org registers the app for that organization instead of the signed-in user.
	Org string
	// WebhookURL replaces the manifest's hook_attributes.url; a URL without a path gets
	// /api/github/hook, where `bot serve` takes deliveries.
	WebhookURL string
	// Name replaces the manifest's name, which must be unique on GitHub.
	Name string
	// ManifestPath is the YAML manifest; empty is app.yml in the working directory when
	// there is one, else the app.yml built into the binary.
	ManifestPath string
	// ConfigPath is the config file to write (default config.yml); the private key goes
	// beside it, in KeyPath(ConfigPath).
	ConfigPath string
	// Force overwrites existing files instead of refusing to start.
	Force bool
	// HTTPClient makes the code exchange; nil is http.DefaultClient.
	HTTPClient *http.Client
	// Log hears each step in a line of plain words, never a secret; nil discards them.
	Log io.Writer
}

// Result is what a finished registration wrote, for the command to tell the user.
type Result struct {
	AppID      int64
	Slug       string
	Name       string
	Owner      string
	HTMLURL    string
	InstallURL string
	ConfigPath string
	KeyPath    string
	WebhookURL string
}

// Summary tells the person who registered the app what was written and what comes next.
func (r Result) Summary() string {
	return fmt.Sprintf(`Registered the GitHub App %s (App ID %d) for %s: %s
Wrote %s (App ID, webhook secret, slug) and %s (the private key), both mode 0600: keep them private.
Next: install the app where agents ask, %s
then run: bot serve -c %s   (GitHub sends webhooks to %s)
`, r.Slug, r.AppID, r.Owner, r.HTMLURL, r.ConfigPath, r.KeyPath, r.InstallURL, r.ConfigPath, r.WebhookURL)
}

// Flow is the local page of one registration and its callback. It is done once GitHub's
// credentials are written, or once writing them failed, since GitHub hands them over only
// once.
type Flow struct {
	opts     Options
	base     *url.URL
	manifest []byte
	man      manifest
	state    string
	keyPath  string
	gh       *github.Client

	mu     sync.Mutex // held across a callback, so that one code is exchanged at a time
	result *Result
	err    error
	done   chan struct{}
}

// New checks the options, reads the manifest and makes sure the files can be written
// without overwriting anything, all before the user is sent to GitHub: an app registered
// whose credentials then cannot be written would have to be fixed by hand. base is the
// page's own origin on loopback (http://127.0.0.1:PORT), where GitHub sends the browser back.
func New(opts Options, base string) (*Flow, error) {
	opts = opts.withDefaults()
	apiURL, err := opts.normalizeURLs()
	if err != nil {
		return nil, err
	}
	b, err := url.Parse(base)
	if err != nil || b.Scheme != "http" || !isLoopback(b.Hostname()) {
		// The page carries the state that guards the callback: it is for this machine's
		// browser only.
		return nil, fmt.Errorf("the page must be served on loopback, not %q", base)
	}
	if opts.Org != "" && !isSlugLike(opts.Org) {
		return nil, fmt.Errorf("-org %q is not an organization's login", opts.Org)
	}

	man, err := readManifest(opts.ManifestPath)
	if err != nil {
		return nil, err
	}
	if err := man.complete(opts.Name, opts.WebhookURL, b.String()+"/callback"); err != nil {
		return nil, err
	}
	js, err := man.json()
	if err != nil {
		return nil, err
	}

	f := &Flow{
		opts: opts, base: b, manifest: js, man: man,
		state: randomState(), keyPath: KeyPath(opts.ConfigPath),
		done: make(chan struct{}),
	}
	if err := f.checkFiles(); err != nil {
		return nil, err
	}
	f.gh = github.NewClient(opts.HTTPClient)
	// Set as given rather than through WithEnterpriseURLs, which would add /api/v3/ to
	// any host not named api.*: the config's v3_api_url means exactly what it says.
	f.gh.BaseURL = apiURL
	f.gh.UserAgent = "clarify-setup"
	return f, nil
}

// withDefaults fills the options left empty.
func (opts Options) withDefaults() Options {
	if opts.WebURL == "" {
		opts.WebURL = app.DefaultWebURL
	}
	if opts.APIURL == "" {
		opts.APIURL = app.DefaultV3APIURL
	}
	if opts.ConfigPath == "" {
		opts.ConfigPath = DefaultConfig
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	return opts
}

// normalizeURLs checks GitHub's web and API URLs and writes them as the rest of the flow
// uses them: the web URL without a trailing slash, the API URL with one (returned parsed).
func (opts *Options) normalizeURLs() (*url.URL, error) {
	web, err := httpURL("-web", opts.WebURL)
	if err != nil {
		return nil, err
	}
	opts.WebURL = strings.TrimSuffix(web.String(), "/")
	apiURL, err := httpURL("-api", opts.APIURL)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(apiURL.Path, "/") {
		apiURL.Path += "/"
	}
	opts.APIURL = apiURL.String()
	return apiURL, nil
}

func httpURL(flag, s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %q is not an http(s) URL", flag, s)
	}
	return u, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var slugLike = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*$`)

func isSlugLike(s string) bool { return slugLike.MatchString(s) }

func randomState() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}

// URL is the page to open in a browser.
func (f *Flow) URL() string { return f.base.String() + "/" }

// Done is closed once the registration has ended: written, or failed past retrying.
func (f *Flow) Done() <-chan struct{} { return f.done }

// Outcome is what the registration wrote, or why it could not; ok is false while it has
// not ended.
func (f *Flow) Outcome() (res Result, ok bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.done:
	default:
		return Result{}, false, nil
	}
	if f.result != nil {
		res = *f.result
	}
	return res, true, f.err
}

// ServeHTTP serves the page at / and GitHub's redirect at /callback.
func (f *Flow) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A page elsewhere on the web could reach this port through a name that resolves to
	// 127.0.0.1 (DNS rebinding) and read the state off the page; such requests carry
	// that name as their Host.
	if r.Host != f.base.Host && r.Host != "localhost:"+f.base.Port() {
		http.Error(w, "bot setup answers only on "+f.base.Host, http.StatusMisdirectedRequest)
		return
	}
	switch {
	case r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		f.start(w)
	case r.URL.Path == "/callback" && r.Method == http.MethodGet:
		f.callback(w, r)
	default:
		http.NotFound(w, r)
	}
}

// registerURL is GitHub's page that takes a manifest, for the user or the organization.
// GitHub takes state from the query string (see the flow's documentation).
func (f *Flow) registerURL() string {
	path := "/settings/apps/new"
	if f.opts.Org != "" {
		path = "/organizations/" + url.PathEscape(f.opts.Org) + path
	}
	return f.opts.WebURL + path + "?" + url.Values{"state": {f.state}}.Encode()
}

func (f *Flow) owner() string {
	if f.opts.Org != "" {
		return "the organization " + f.opts.Org
	}
	return "your account"
}

func (f *Flow) start(w http.ResponseWriter) {
	f.mu.Lock()
	finished := f.result != nil
	f.mu.Unlock()
	if finished {
		f.page(w, http.StatusOK, "done", f.resultPage())
		return
	}
	f.page(w, http.StatusOK, "start", map[string]any{
		"Name":         f.man.name(),
		"Owner":        f.owner(),
		"Web":          f.opts.WebURL,
		"Manifest":     string(f.manifest),
		"ManifestFile": f.opts.ManifestPath,
		"Action":       template.URL(f.registerURL()),
		"HookURL":      f.man.hookURL(),
		"Permissions":  f.man.permissions(),
		"Events":       f.man.events(),
		"Config":       f.opts.ConfigPath,
		"Key":          f.keyPath,
	})
}

// codeShape is what GitHub's codes look like (hex today); anything else is refused before
// it becomes part of an API path.
var codeShape = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

func (f *Flow) callback(w http.ResponseWriter, r *http.Request) {
	code, ok := f.callbackCode(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.result != nil || f.err != nil {
		// A reload of the callback: the code is spent, and what it gave is written.
		f.page(w, http.StatusOK, "done", f.resultPageLocked())
		return
	}
	fmt.Fprintln(f.opts.Log, "bot setup: GitHub sent the browser back; exchanging the code for the app's credentials")
	ctx, cancel := context.WithTimeout(r.Context(), exchangeTimeout)
	defer cancel()
	cfg, _, err := f.gh.Apps.CompleteAppManifest(ctx, code)
	if err == nil {
		err = checkConversion(cfg)
	}
	if err != nil {
		fmt.Fprintf(f.opts.Log, "bot setup: the code exchange failed: %v\n", err)
		f.page(w, http.StatusBadGateway, "problem", map[string]any{
			"Title": "GitHub did not hand over the app's credentials",
			"What":  "Exchanging the code at " + f.opts.APIURL + " failed: " + exchangeProblem(err),
			"Next": "Nothing was written. GitHub may have created the app all the same: look at " + f.appsPage() +
				"; delete it there before starting again (its name is taken), or keep it and generate a private key there to fill in the config by hand.",
			"Start": f.URL(),
		})
		return
	}

	res := f.resultOf(cfg)
	f.result = &res
	f.err = f.write(cfg)
	close(f.done)
	if f.err != nil {
		fmt.Fprintf(f.opts.Log, "bot setup: %v\n", f.err)
		f.page(w, http.StatusInternalServerError, "problem", map[string]any{
			"Title": "The app is registered, but its credentials were not all written",
			"What":  f.err.Error(),
			"Next": "GitHub hands the credentials over only once. On the app's settings page, " + res.HTMLURL +
				" (Settings), take the App ID, set a new webhook secret and generate a private key, then fill in the config by hand (config.example.yml documents it).",
		})
		return
	}
	fmt.Fprintf(f.opts.Log, "bot setup: wrote %s and %s\n", res.ConfigPath, res.KeyPath)
	f.page(w, http.StatusOK, "done", f.resultPageLocked())
}

// callbackCode is the code GitHub sent the browser back with; false, once the page says
// why, when the callback is not this run's or carries no code.
func (f *Flow) callbackCode(w http.ResponseWriter, r *http.Request) (string, bool) {
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(f.state)) != 1 {
		// Without this, a page elsewhere could send the browser here with the code of
		// an app of its own, and its credentials would become this config's.
		fmt.Fprintln(f.opts.Log, "bot setup: refused a callback whose state is not this run's")
		f.page(w, http.StatusForbidden, "problem", map[string]any{
			"Title": "Not the registration this page started",
			"What":  "This address was opened with a state that is not the one bot setup gave GitHub, so the code it carries was not exchanged and nothing was written.",
			"Next":  "To register the app, start from the page bot setup printed.",
			"Start": f.URL(),
		})
		return "", false
	}
	code := q.Get("code")
	if !codeShape.MatchString(code) {
		f.page(w, http.StatusBadRequest, "problem", map[string]any{
			"Title": "No code from GitHub",
			"What":  "GitHub sends the browser back here with a code once the app is created; this address has none (or not one GitHub makes), so nothing was written.",
			"Next":  "Start again from the page bot setup printed.",
			"Start": f.URL(),
		})
		return "", false
	}
	return code, true
}

// resultOf is what the registration wrote, from GitHub's answer to the code exchange.
func (f *Flow) resultOf(cfg *github.AppConfig) Result {
	res := Result{
		AppID: cfg.GetID(), Slug: cfg.GetSlug(), Name: cfg.GetName(), Owner: cfg.GetOwner().GetLogin(),
		HTMLURL: cfg.GetHTMLURL(), ConfigPath: f.opts.ConfigPath, KeyPath: f.keyPath, WebhookURL: f.man.hookURL(),
	}
	if res.HTMLURL == "" {
		res.HTMLURL = f.opts.WebURL + "/apps/" + res.Slug
	}
	res.InstallURL = strings.TrimSuffix(res.HTMLURL, "/") + "/installations/new"
	return res
}

// appsPage is where GitHub lists the apps of the user or the organization.
func (f *Flow) appsPage() string {
	if f.opts.Org != "" {
		return f.opts.WebURL + "/organizations/" + url.PathEscape(f.opts.Org) + "/settings/apps"
	}
	return f.opts.WebURL + "/settings/apps"
}

// checkConversion refuses an answer that lacks what the config needs, before anything is
// written from it.
func checkConversion(cfg *github.AppConfig) error {
	var missing []string
	if cfg.GetID() <= 0 {
		missing = append(missing, "id")
	}
	if cfg.GetSlug() == "" {
		missing = append(missing, "slug")
	}
	if cfg.GetWebhookSecret() == "" {
		missing = append(missing, "webhook_secret")
	}
	if cfg.GetPEM() == "" {
		missing = append(missing, "pem")
	}
	if len(missing) > 0 {
		return fmt.Errorf("GitHub's answer has no %s", strings.Join(missing, ", "))
	}
	if err := checkKey(cfg.GetPEM()); err != nil {
		return fmt.Errorf("the private key in GitHub's answer does not parse: %w", err)
	}
	return nil
}

// exchangeProblem says what a failed exchange means for the user; GitHub answers an
// unknown, spent or expired code alike, with 404.
func exchangeProblem(err error) string {
	var ghErr *github.ErrorResponse
	if errors.As(err, &ghErr) && ghErr.Response != nil {
		msg := fmt.Sprintf("GitHub answered %d %s", ghErr.Response.StatusCode, ghErr.Message)
		if ghErr.Response.StatusCode == http.StatusNotFound {
			msg += " (the code is unknown, already used, or more than an hour old: GitHub honours each code once, within an hour)"
		}
		return msg + "."
	}
	return err.Error() + "."
}

func (f *Flow) resultPage() map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resultPageLocked()
}

func (f *Flow) resultPageLocked() map[string]any {
	var res Result
	if f.result != nil {
		res = *f.result
	}
	return map[string]any{"R": res, "Failed": f.err != nil, "Err": fmt.Sprint(f.err)}
}

func (f *Flow) page(w http.ResponseWriter, status int, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// The page holds the state; no other site may frame it or read it from a cache.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, name, data)
}

var pages = template.Must(template.New("").Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.}} · bot setup</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
code{background:#f3f3f3;padding:0 .2em}button{font-size:1.1rem;padding:.5rem 1rem}</style></head><body>{{end}}

{{define "start"}}{{template "head" "Register the app"}}
<h1>Register {{.Name}} on GitHub</h1>
<p>This registers a new GitHub App owned by {{.Owner}} on <a href="{{.Web}}">{{.Web}}</a>, from <code>{{.ManifestFile}}</code>:</p>
<ul>
<li>webhook URL: <code id="hook-url">{{.HookURL}}</code></li>
<li>permissions: {{range $i, $p := .Permissions}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}</li>
<li>events: {{range $i, $e := .Events}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}</li>
</ul>
<p>GitHub shows the app for you to confirm (you may change its name there; it must be unique on GitHub),
then sends you back here, and <code>bot setup</code> writes <code>{{.Config}}</code> and the private key <code>{{.Key}}</code>.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="manifest" value="{{.Manifest}}">
<button type="submit" id="register">Register on GitHub</button>
</form>
</body></html>{{end}}

{{define "problem"}}{{template "head" .Title}}
<h1 id="problem">{{.Title}}</h1>
<p id="what">{{.What}}</p>
<p>{{.Next}}</p>
{{with .Start}}<p><a href="{{.}}">Start again</a></p>{{end}}
</body></html>{{end}}

{{define "done"}}{{template "head" "Registered"}}
{{if .Failed}}<h1 id="problem">The app is registered, but its credentials were not all written</h1>
<p id="what">{{.Err}}</p>
{{else}}<h1 id="done">Registered {{.R.Name}}</h1>
<p>GitHub registered the app <a href="{{.R.HTMLURL}}"><code>{{.R.Slug}}</code></a> (App ID <span id="app-id">{{.R.AppID}}</span>) for {{.R.Owner}}.</p>
<p>Written, each readable by you alone (mode 0600), and to be kept private: they let anyone act as the app.</p>
<ul>
<li><code id="config-file">{{.R.ConfigPath}}</code>: the configuration of <code>bot serve</code>, with the App ID, the webhook secret and the slug</li>
<li><code id="key-file">{{.R.KeyPath}}</code>: the app's private key</li>
</ul>
<h2>Next</h2>
<ol>
<li>Install the app on the repositories where agents ask: <a id="install" href="{{.R.InstallURL}}">{{.R.InstallURL}}</a></li>
<li>Run <code>bot serve -c {{.R.ConfigPath}}</code> where <code>{{.R.WebhookURL}}</code> reaches it.</li>
</ol>
<p><code>bot setup</code> has finished; you can close this page.</p>
{{end}}</body></html>{{end}}
`))
