package fakegithub

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// GitHub's app-manifest flow, split the way GitHub splits it: the browser posts the
// manifest to github.com, the user confirms there, and the app then turns the code it was
// redirected with into credentials on api.github.com.
// https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest

// RouteManifestConversion is the API route that turns a manifest flow's code into the new
// app's credentials, as Request.Route spells it.
const RouteManifestConversion = "POST /app-manifests/{code}/conversions"

const docsManifestConversion = "https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest"

// manifestCodeTTL is how long GitHub honours a code: "you must complete this step within
// one hour", after which the conversion answers 404 like an unknown code.
const manifestCodeTTL = time.Hour

// FirstManifestAppID is the id of the first app registered through Manifests; ids grow by
// one from there.
const FirstManifestAppID int64 = 1_300_001

// Manifests is github.com's "register a GitHub App from a manifest" flow together with the
// API's code conversion, remembering every app registered through it. Web serves the
// browser's half; API serves the conversion in front of the REST fake.
type Manifests struct {
	api      *Server
	signedIn string

	mu      sync.Mutex
	pending map[string]*pendingManifest // confirmation token -> manifest awaiting the click
	codes   map[string]*RegisteredApp   // code -> app, until converted or expired
	apps    []*RegisteredApp
	nextID  int64
}

type pendingManifest struct {
	owner    string
	ownerOrg bool
	manifest appManifest
	raw      string
	state    string
	webBase  string
}

// appManifest is the part of a manifest the fake checks and echoes back.
type appManifest struct {
	Name           string `json:"name"`
	URL            string `json:"url"`
	Description    string `json:"description"`
	Public         bool   `json:"public"`
	RedirectURL    string `json:"redirect_url"`
	HookAttributes *struct {
		URL    string `json:"url"`
		Active *bool  `json:"active"`
	} `json:"hook_attributes"`
	DefaultPermissions map[string]string `json:"default_permissions"`
	DefaultEvents      []string          `json:"default_events"`
}

// RegisteredApp is an app created through the manifest flow, as the fake remembers it.
type RegisteredApp struct {
	ID      int64
	Slug    string
	Name    string
	Owner   string
	HTMLURL string
	// Manifest is the manifest's JSON exactly as the browser posted it.
	Manifest      string
	Permissions   map[string]string
	Events        []string
	HookURL       string
	RedirectURL   string
	WebhookSecret string
	ClientID      string
	ClientSecret  string
	// Key is the private key handed out by the conversion; nil until then.
	Key       *rsa.PrivateKey
	Converted bool
	code      string
	created   time.Time
}

// NewManifests returns the manifest flow in front of api, whose request log also records
// the conversions. signedIn is the user the web pages act for (default "octocat"); the
// organization variant registers apps owned by the organization instead.
func NewManifests(api *Server, signedIn string) *Manifests {
	if signedIn == "" {
		signedIn = "octocat"
	}
	return &Manifests{
		api:      api,
		signedIn: signedIn,
		pending:  map[string]*pendingManifest{},
		codes:    map[string]*RegisteredApp{},
		nextID:   FirstManifestAppID,
	}
}

// Apps returns copies of the apps registered so far, oldest first.
func (m *Manifests) Apps() []RegisteredApp {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]RegisteredApp, 0, len(m.apps))
	for _, a := range m.apps {
		out = append(out, *a)
	}
	return out
}

// API serves the code conversion and hands every other request to the REST fake. The
// conversion is served here, not from the route table, because GitHub answers it without
// any credential while the table's routes all authenticate.
func (m *Manifests) API() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
		if r.Method != http.MethodPost || len(segs) != 3 || segs[0] != "app-manifests" || segs[2] != "conversions" || segs[1] == "" {
			m.api.ServeHTTP(w, r)
			return
		}
		rep := m.convert(segs[1])
		s := m.api
		s.mu.Lock()
		defer s.mu.Unlock()
		rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Route: RouteManifestConversion, At: s.nowLocked()}
		rec.Status = s.writeLocked(w, r, 0, rep)
		s.requests = append(s.requests, rec)
	})
}

// convert answers POST /app-manifests/{code}/conversions: 201 with the app and its secrets
// once per code; a used, expired or unknown code is 404, as on GitHub.
func (m *Manifests) convert(code string) reply {
	m.mu.Lock()
	a := m.codes[code]
	delete(m.codes, code)
	m.mu.Unlock()
	if a == nil || time.Since(a.created) > manifestCodeTTL {
		return errorReply(http.StatusNotFound, "Not Found", docsManifestConversion)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return errorReply(http.StatusInternalServerError, "Server Error", docsManifestConversion)
	}
	m.mu.Lock()
	a.Key, a.Converted = key, true
	app := *a
	m.mu.Unlock()

	s := m.api
	s.mu.Lock()
	owner := s.userJSONLocked(app.Owner)
	s.mu.Unlock()
	created := jtime(app.created)
	// GitHub's app, with what only the conversion answers.
	body := struct {
		appJSON
		ClientID      string `json:"client_id"`
		ClientSecret  string `json:"client_secret"`
		WebhookSecret string `json:"webhook_secret"`
		PEM           string `json:"pem"`
	}{
		appJSON: appJSON{ID: app.ID, Slug: app.Slug, NodeID: nodeID("Integration", app.ID), Owner: owner,
			Name: app.Name, ExternalURL: app.HTMLURL, HTMLURL: app.HTMLURL,
			CreatedAt: created, UpdatedAt: created, Permissions: app.Permissions, Events: app.Events},
		ClientID: app.ClientID, ClientSecret: app.ClientSecret, WebhookSecret: app.WebhookSecret,
		PEM: string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})),
	}
	var manifest appManifest
	if json.Unmarshal([]byte(app.Manifest), &manifest) == nil {
		body.Description, body.ExternalURL = manifest.Description, manifest.URL
	}
	return reply{status: http.StatusCreated, body: body}
}

// Web serves github.com's side of the flow: POST /settings/apps/new and
// /organizations/{org}/settings/apps/new take the manifest and show the confirmation page;
// its "Create GitHub App" button registers the app and redirects the browser to the
// manifest's redirect_url with a code and the state it was given.
func (m *Manifests) Web() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /settings/apps/new", func(w http.ResponseWriter, r *http.Request) {
		m.confirmPage(w, r, m.signedIn, false)
	})
	mux.HandleFunc("POST /organizations/{org}/settings/apps/new", func(w http.ResponseWriter, r *http.Request) {
		m.confirmPage(w, r, r.PathValue("org"), true)
	})
	mux.HandleFunc("POST /settings/apps/new/confirm", m.create)
	return mux
}

var manifestPages = template.Must(template.New("confirm").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Create GitHub App</title></head>
<body>
<h1>Create GitHub App for {{.Owner}}</h1>
<form method="post" action="/settings/apps/new/confirm">
<input type="hidden" name="pending" value="{{.Token}}">
<p>GitHub App name: <strong id="app-name">{{.Manifest.Name}}</strong></p>
<p>Homepage URL: {{.Manifest.URL}}</p>
<p>Webhook URL: <span id="hook-url">{{.HookURL}}</span></p>
<h2>Permissions</h2>
<ul id="permissions">{{range .Permissions}}<li>{{.}}</li>{{end}}</ul>
<h2>Events</h2>
<ul id="events">{{range .Manifest.DefaultEvents}}<li>{{.}}</li>{{end}}</ul>
<button type="submit" id="create-app">Create GitHub App</button>
</form>
</body></html>
`))

var manifestErrorPage = template.Must(template.New("error").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Error</title></head>
<body><h1>Something went wrong</h1><p id="error">{{.}}</p></body></html>
`))

func manifestError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = manifestErrorPage.Execute(w, msg)
}

// confirmPage checks the posted manifest as GitHub does before showing it for
// confirmation. GitHub reads state from the form's query string.
func (m *Manifests) confirmPage(w http.ResponseWriter, r *http.Request, owner string, org bool) {
	if err := r.ParseForm(); err != nil {
		manifestError(w, http.StatusBadRequest, err.Error())
		return
	}
	raw := r.PostForm.Get("manifest")
	man, err := checkManifest(raw)
	if err != nil {
		manifestError(w, http.StatusUnprocessableEntity, "Invalid GitHub App configuration: "+err.Error())
		return
	}
	state := r.URL.Query().Get("state")
	if state == "" {
		state = r.PostForm.Get("state")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	token := randomHex(16)
	m.mu.Lock()
	m.pending[token] = &pendingManifest{owner: owner, ownerOrg: org, manifest: man, raw: raw, state: state, webBase: scheme + "://" + r.Host}
	m.mu.Unlock()

	var perms []string
	for k, v := range man.DefaultPermissions {
		perms = append(perms, k+": "+v)
	}
	sort.Strings(perms)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = manifestPages.Execute(w, map[string]any{
		"Owner": owner, "Token": token, "Manifest": man, "HookURL": man.HookAttributes.URL, "Permissions": perms,
	})
}

// checkManifest refuses what GitHub refuses: not a JSON object, no name, no homepage, an
// active webhook without a URL; and, since the flow cannot finish without one, no
// redirect_url.
func checkManifest(raw string) (appManifest, error) {
	var man appManifest
	if strings.TrimSpace(raw) == "" {
		return man, errors.New("the manifest parameter is missing")
	}
	if err := json.Unmarshal([]byte(raw), &man); err != nil {
		return man, fmt.Errorf("the manifest is not valid JSON: %v", err)
	}
	switch {
	case strings.TrimSpace(man.Name) == "":
		return man, errors.New("name can't be blank")
	case man.URL == "":
		return man, errors.New("url can't be blank")
	case man.HookAttributes == nil || (man.HookAttributes.URL == "" && (man.HookAttributes.Active == nil || *man.HookAttributes.Active)):
		return man, errors.New("hook_attributes.url can't be blank")
	case man.RedirectURL == "":
		return man, errors.New("redirect_url can't be blank")
	}
	if u, err := url.Parse(man.RedirectURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return man, fmt.Errorf("redirect_url %q is not an http(s) URL", man.RedirectURL)
	}
	return man, nil
}

// create is the confirmation's "Create GitHub App": it registers the app and sends the
// browser to redirect_url?code=…&state=….
func (m *Manifests) create(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		manifestError(w, http.StatusBadRequest, err.Error())
		return
	}
	m.mu.Lock()
	p := m.pending[r.PostForm.Get("pending")]
	delete(m.pending, r.PostForm.Get("pending"))
	if p == nil {
		m.mu.Unlock()
		manifestError(w, http.StatusNotFound, "This confirmation has expired or was already used: post the manifest again.")
		return
	}
	slug := appSlug(p.manifest.Name)
	for _, a := range m.apps {
		if a.Slug == slug {
			m.mu.Unlock()
			manifestError(w, http.StatusUnprocessableEntity, "Name is already in use")
			return
		}
	}
	a := &RegisteredApp{
		ID: m.nextID, Slug: slug, Name: p.manifest.Name, Owner: p.owner,
		HTMLURL: p.webBase + "/apps/" + slug, Manifest: p.raw,
		Permissions: p.manifest.DefaultPermissions, Events: p.manifest.DefaultEvents,
		HookURL: p.manifest.HookAttributes.URL, RedirectURL: p.manifest.RedirectURL,
		WebhookSecret: randomHex(20), ClientID: "Iv1." + randomHex(8), ClientSecret: randomHex(20),
		code: randomHex(20), created: time.Now(),
	}
	m.nextID++
	m.apps = append(m.apps, a)
	m.codes[a.code] = a
	m.mu.Unlock()

	m.api.mu.Lock()
	if p.ownerOrg {
		m.api.accountLocked(p.owner)
	} else {
		m.api.userLocked(p.owner)
	}
	m.api.mu.Unlock()

	to, _ := url.Parse(p.manifest.RedirectURL) // checked by checkManifest
	q := to.Query()
	q.Set("code", a.code)
	if p.state != "" {
		q.Set("state", p.state)
	}
	to.RawQuery = q.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// appSlug is the slug GitHub derives from an app's name: lower case, with every run of
// other characters turned into one hyphen.
func appSlug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			hyphen = false
		} else if !hyphen && b.Len() > 0 {
			b.WriteByte('-')
			hyphen = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
