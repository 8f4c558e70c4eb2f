package fakegithub

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v60/github"
)

const (
	testAppID = 4242
	testRepo  = "octo/widgets"
)

var (
	keyOnce sync.Once
	testKey *rsa.PrivateKey
)

// appKey is the app's 2048-bit RSA key, generated once per test binary.
func appKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		testKey = k
	})
	return testKey
}

func appKeyPEM(t *testing.T) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(appKey(t))})
}

// fixture is a Server behind httptest with installation 1 on octo/widgets,
// issue 42 opened by alice, and a go-github client holding a token for it.
type fixture struct {
	s      *Server
	srv    *httptest.Server
	client *github.Client
	ctx    context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	s := New(Options{AppID: testAppID, AppSlug: "clarify", WebhookSecret: []byte("s3cret"), AppPublicKey: &appKey(t).PublicKey})
	s.AddInstallation(1, "octo", testRepo)
	s.AddUser("alice", "User")
	s.SetPermission(testRepo, "alice", "write")
	s.OpenIssue(testRepo, 42, "Pick a timezone", "alice")
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return &fixture{s: s, srv: srv, client: tokenClient(t, srv.URL, s.IssueToken(1)), ctx: context.Background()}
}

// tokenClient is a go-github client that authenticates with a fixed token.
func tokenClient(t *testing.T, base, token string) *github.Client {
	t.Helper()
	c := github.NewClient(nil).WithAuthToken(token)
	u, err := url.Parse(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = u
	return c
}

// do makes a raw request and returns the response and its body.
func (f *fixture) do(t *testing.T, method, path, body string, header ...string) (*http.Response, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+f.s.IssueToken(1))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// statusOf extracts the HTTP status of a go-github error (0 if none).
func statusOf(err error) int {
	switch e := err.(type) {
	case *github.ErrorResponse:
		return e.Response.StatusCode
	case *github.RateLimitError:
		return e.Response.StatusCode
	}
	return 0
}

func lastRequest(t *testing.T, s *Server) Request {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request logged")
	}
	return reqs[len(reqs)-1]
}

// newFixtureFor serves s with httptest and returns its URL.
func newFixtureFor(t *testing.T, s *Server) string {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv.URL
}
