package fakegithub

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/golang-jwt/jwt/v4"
	"github.com/google/go-github/v60/github"
)

// installationClient is the client go-githubapp builds: ghinstallation
// exchanging an RS256 App JWT for an installation token at the fake.
func installationClient(t *testing.T, f *fixture, inst int64) *github.Client {
	t.Helper()
	itr, err := ghinstallation.New(http.DefaultTransport, testAppID, inst, appKeyPEM(t))
	if err != nil {
		t.Fatal(err)
	}
	itr.BaseURL = f.srv.URL
	c := github.NewClient(&http.Client{Transport: itr})
	c.BaseURL, _ = url.Parse(f.srv.URL + "/")
	return c
}

func TestTokenExchangeWithRealJWT(t *testing.T) {
	f := newFixture(t)
	f.s.ResetRequests()
	c := installationClient(t, f, 1)

	cm, _, err := c.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("hello")})
	if err != nil {
		t.Fatalf("CreateComment: %v", err)
	}
	if got := cm.GetUser().GetLogin(); got != "clarify[bot]" {
		t.Errorf("author = %q, want clarify[bot]", got)
	}
	if got := cm.GetUser().GetType(); got != "Bot" {
		t.Errorf("author type = %q, want Bot", got)
	}
	if _, _, err := c.Issues.Get(f.ctx, "octo", "widgets", 42); err != nil {
		t.Fatalf("Get issue: %v", err)
	}

	reqs := f.s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %+v, want token exchange, POST comment, GET issue", reqs)
	}
	ex := reqs[0]
	if ex.Route != routeAccessToken || ex.Status != http.StatusCreated || ex.Installation != 1 {
		t.Errorf("token exchange logged as %+v", ex)
	}
	for _, r := range reqs[1:] {
		if r.Installation != 1 || r.Unhandled {
			t.Errorf("request %+v: want installation 1, handled", r)
		}
	}
	if got := f.s.CountRequests(routeAccessToken); got != 1 {
		t.Errorf("token exchanges = %d, want 1 (ghinstallation caches the token)", got)
	}
	if got := f.s.Comments(testRepo, 42); len(got) != 1 || got[0].UserType != "Bot" {
		t.Errorf("comments = %+v", got)
	}
}

func TestTokenExchangeResponseShape(t *testing.T) {
	f := newFixture(t)
	tok := signJWT(t, appKey(t), strconv.Itoa(testAppID), time.Now().Add(-30*time.Second), 2*time.Minute)
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/app/installations/1/access_tokens", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Token               string            `json:"token"`
		ExpiresAt           time.Time         `json:"expires_at"`
		Permissions         map[string]string `json:"permissions"`
		RepositorySelection string            `json:"repository_selection"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(body.Token, "ghs_") || body.Permissions["issues"] != "write" || body.RepositorySelection == "" {
		t.Errorf("status %d body %+v", resp.StatusCode, body)
	}
	if d := time.Until(body.ExpiresAt); d < 59*time.Minute || d > 61*time.Minute {
		t.Errorf("expires_at %v is not an hour away", body.ExpiresAt)
	}
	if resp.Header.Get("X-RateLimit-Limit") == "" || resp.Header.Get("X-GitHub-Request-Id") == "" {
		t.Errorf("missing GitHub headers: %v", resp.Header)
	}

	// The token works for its installation's repositories.
	c := tokenClient(t, f.srv.URL, body.Token)
	if _, _, err := c.Issues.Get(f.ctx, "octo", "widgets", 42); err != nil {
		t.Errorf("token does not work: %v", err)
	}
}

func signJWT(t *testing.T, key *rsa.PrivateKey, iss string, iat time.Time, life time.Duration) string {
	t.Helper()
	claims := jwt.RegisteredClaims{
		Issuer:    iss,
		IssuedAt:  jwt.NewNumericDate(iat.Truncate(time.Second)),
		ExpiresAt: jwt.NewNumericDate(iat.Add(life).Truncate(time.Second)),
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAppJWTRejected(t *testing.T) {
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	app := strconv.Itoa(testAppID)
	tests := map[string]struct {
		auth string
		want string
	}{
		"signedByAnotherKey":     {"Bearer " + signJWT(t, other, app, now, time.Minute), "could not be decoded"},
		"expired":                {"Bearer " + signJWT(t, appKey(t), app, now.Add(-20*time.Minute), 5*time.Minute), "'exp'"},
		"livesLongerThanTenMins": {"Bearer " + signJWT(t, appKey(t), app, now, 30*time.Minute), "too far in the future"},
		"issuedInTheFuture":      {"Bearer " + signJWT(t, appKey(t), app, now.Add(10*time.Minute), 5*time.Minute), "'iat'"},
		"anotherApp":             {"Bearer " + signJWT(t, appKey(t), "7", now, time.Minute), "'iss'"},
		"malformed":              {"Bearer not.a.jwt", "could not be decoded"},
		"tokenScheme":            {"token " + signJWT(t, appKey(t), app, now, time.Minute), "could not be decoded"},
		"missing":                {"", "Requires authentication"},
	}
	f := newFixture(t)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/app/installations/1/access_tokens", nil)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e apiError
			json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(e.Message, tc.want) {
				t.Errorf("got %d %q, want 401 containing %q", resp.StatusCode, e.Message, tc.want)
			}
		})
	}
}

func TestNilPublicKeyAcceptsAnyWellFormedJWT(t *testing.T) {
	s := New(Options{AppID: testAppID})
	s.AddInstallation(3, "octo", testRepo)
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	exchange := func(inst string) int {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/app/installations/"+inst+"/access_tokens", nil)
		req.Header.Set("Authorization", "Bearer "+signJWT(t, other, "whoever", time.Now(), time.Minute))
		s.ServeHTTP(rec, req)
		return rec.Code
	}
	if got := exchange("3"); got != http.StatusCreated {
		t.Errorf("status = %d, want 201", got)
	}
	if got := exchange("99"); got != http.StatusNotFound {
		t.Errorf("unknown installation: status = %d, want 404", got)
	}
}

func TestInstallationTokenScope(t *testing.T) {
	f := newFixture(t)
	f.s.AddInstallation(2, "acme", "acme/rockets")
	f.s.OpenIssue("acme/rockets", 1, "Launch", "wile")

	if _, _, err := f.client.Issues.Get(f.ctx, "acme", "rockets", 1); statusOf(err) != http.StatusNotFound {
		t.Errorf("another installation's repository: err = %v, want 404", err)
	}
	if _, _, err := f.client.Issues.Get(f.ctx, "octo", "nope", 1); statusOf(err) != http.StatusNotFound {
		t.Errorf("unknown repository: err = %v, want 404", err)
	}
	bad := tokenClient(t, f.srv.URL, "ghs_forged")
	_, _, err := bad.Issues.Get(f.ctx, "octo", "widgets", 42)
	if statusOf(err) != http.StatusUnauthorized || !strings.Contains(err.Error(), "Bad credentials") {
		t.Errorf("forged token: err = %v, want 401 Bad credentials", err)
	}
	other := tokenClient(t, f.srv.URL, f.s.IssueToken(2))
	if _, _, err := other.Issues.Get(f.ctx, "acme", "rockets", 1); err != nil {
		t.Errorf("installation 2's own repository: %v", err)
	}
}

func TestListInstallationsAndRepositories(t *testing.T) {
	f := newFixture(t)
	for i := int64(2); i <= 35; i++ {
		f.s.AddInstallation(i, "org"+strconv.FormatInt(i, 10), "org"+strconv.FormatInt(i, 10)+"/repo")
	}
	f.s.AddInstallation(1, "octo", "octo/gadgets")

	app := appClient(t, f)
	var ids []int64
	opt := &github.ListOptions{PerPage: 10}
	for {
		page, resp, err := app.Apps.ListInstallations(f.ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range page {
			ids = append(ids, in.GetID())
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	if len(ids) != 35 || ids[0] != 1 || ids[34] != 35 {
		t.Errorf("installations = %v", ids)
	}

	repos, _, err := f.client.Apps.ListRepos(f.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if repos.GetTotalCount() != 2 || len(repos.Repositories) != 2 || repos.Repositories[0].GetFullName() != "octo/widgets" {
		t.Errorf("installation repositories = %+v", repos)
	}
}

func TestFindInstallations(t *testing.T) {
	f := newFixture(t)
	f.s.AddUser("solo", "User")
	f.s.AddInstallation(9, "solo", "solo/tools")
	app := appClient(t, f)

	if in, _, err := app.Apps.FindOrganizationInstallation(f.ctx, "octo"); err != nil || in.GetID() != 1 || in.GetAppID() != testAppID {
		t.Errorf("organisation: %v %v", in, err)
	}
	if _, _, err := app.Apps.FindOrganizationInstallation(f.ctx, "solo"); statusOf(err) != http.StatusNotFound {
		t.Errorf("a user is not an organisation: err = %v", err)
	}
	if in, _, err := app.Apps.FindUserInstallation(f.ctx, "solo"); err != nil || in.GetID() != 9 {
		t.Errorf("user: %v %v", in, err)
	}
	if in, _, err := app.Apps.FindRepositoryInstallation(f.ctx, "solo", "tools"); err != nil || in.GetID() != 9 {
		t.Errorf("repository: %v %v", in, err)
	}
	if in, _, err := app.Apps.GetInstallation(f.ctx, 1); err != nil || in.GetAccount().GetLogin() != "octo" {
		t.Errorf("by id: %v %v", in, err)
	}
	if a, _, err := app.Apps.Get(f.ctx, ""); err != nil || a.GetSlug() != "clarify" || a.GetID() != testAppID {
		t.Errorf("app: %v %v", a, err)
	}
	// Installation endpoints want the JWT, not a token.
	if _, _, err := f.client.Apps.FindRepositoryInstallation(f.ctx, "octo", "widgets"); statusOf(err) != http.StatusUnauthorized {
		t.Errorf("with an installation token: err = %v, want 401", err)
	}
}
