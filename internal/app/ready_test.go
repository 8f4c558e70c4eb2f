package app_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/internal/app"
)

func get(t *testing.T, srv *httptest.Server, path string) int {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestReadyzAnswers503UntilGitHubAcceptsTheApp(t *testing.T) {
	h := newHarness(t)
	if got := get(t, h.AppServer, "/readyz"); got != http.StatusServiceUnavailable {
		t.Errorf("readyz before any exchange with GitHub = %d, want 503", got)
	}
	if got := get(t, h.AppServer, "/healthz"); got != http.StatusOK {
		t.Errorf("healthz = %d: liveness does not wait for GitHub", got)
	}
	if err := h.App.CheckGitHub(context.Background()); err != nil {
		t.Fatalf("the check failed against the in-memory GitHub: %v", err)
	}
	if got := get(t, h.AppServer, "/readyz"); got != http.StatusOK {
		t.Errorf("readyz after GitHub accepted the app's JWT = %d, want 200", got)
	}
	var calls []string
	for _, r := range h.Fake.Requests() {
		calls = append(calls, r.Route)
	}
	if len(calls) != 1 || calls[0] != "GET /app" {
		t.Errorf("the check made %q; want one GET /app", calls)
	}
}

// TestNotReadyNamesTheLikelyCause: each mistake GitHub alone can reveal keeps /readyz at
// 503, with an error that points at the setting to fix.
func TestNotReadyNamesTheLikelyCause(t *testing.T) {
	h := newHarness(t)
	closed := closedPort(t)
	cases := map[string]struct {
		tune func(*app.Config)
		want string
	}{
		"anotherAppsKey": {func(c *app.Config) { c.Github.App.PrivateKey = otherKey(t) },
			"GitHub refused the app's JWT (401 A JSON web token could not be decoded): check github.app.integration_id"},
		"wrongAppID": {func(c *app.Config) { c.Github.App.IntegrationID = 99 },
			"GitHub refused the app's JWT (401 'Issuer' claim ('iss') must be an Integer): check github.app.integration_id"},
		"wrongSlug": {func(c *app.Config) { c.Clarify.AppSlug = "clarifier" },
			`GitHub says this app's slug is "clarify", but clarify.app_slug (CLARIFY_APP_SLUG) is "clarifier"`},
		"apiURLWrong": {func(c *app.Config) { c.Github.V3APIURL = h.GitHub.URL + "/api/v3/" },
			"app answered 404: github.v3_api_url (GITHUB_V3_API_URL) is probably wrong"},
		"apiUnreachable": {func(c *app.Config) { c.Github.V3APIURL = "http://" + closed + "/" },
			"cannot reach GitHub at http://" + closed + "/: check github.v3_api_url (GITHUB_V3_API_URL)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := h.Config
			tc.tune(&cfg)
			a, err := app.NewApp(cfg, app.NewLogger(io.Discard, "info"), h.Fake.Now)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(a.Handler)
			defer srv.Close()
			if err := a.CheckGitHub(context.Background()); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant one containing %q", err, tc.want)
			}
			if got := get(t, srv, "/readyz"); got != http.StatusServiceUnavailable {
				t.Errorf("readyz = %d, want 503", got)
			}
		})
	}
}

// TestAwaitGitHubLogsAWrongKeyAndStaysUnready is what serve runs in the background.
func TestAwaitGitHubLogsAWrongKeyAndStaysUnready(t *testing.T) {
	h := newHarness(t)
	cfg := h.Config
	cfg.Github.App.PrivateKey = otherKey(t)
	var logs testenv.Buffer
	logger := app.NewLogger(&logs, "info")
	a, err := app.NewApp(cfg, logger, h.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.AwaitGitHub(ctx, logger); close(done) }()
	waitFor(t, "the failed check to be logged", func() bool { return strings.Contains(logs.String(), "check github.app.integration_id") })
	if a.Ready() {
		t.Error("ready with another app's key")
	}
	cancel()
	<-done
	if a.Ready() {
		t.Error("ready with another app's key")
	}
}

func TestAwaitGitHubMakesTheAppReady(t *testing.T) {
	h := newHarness(t)
	var logs testenv.Buffer
	done := make(chan struct{})
	go func() { h.App.AwaitGitHub(context.Background(), app.NewLogger(&logs, "info")); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("AwaitGitHub did not return once GitHub accepted the app")
	}
	if got := get(t, h.AppServer, "/readyz"); got != http.StatusOK {
		t.Errorf("readyz = %d, want 200", got)
	}
	if !strings.Contains(logs.String(), "/readyz answers 200") {
		t.Errorf("the log does not say the app is ready: %s", logs.String())
	}
}

// otherKey is a valid RSA key that is not the app's.
func otherKey(t *testing.T) string {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
}

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// waitFor polls cond for up to 5 s: long enough for a loaded machine, and only a failing
// test waits it out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
