package fakegithub

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Authentication runs on the wall clock, not on the Server's clock:
// ghinstallation signs the App JWT with time.Now() and decides when to
// refresh a token by comparing expires_at with time.Now(). Expiring tokens on
// a virtual clock that sits months away from the wall clock would make the
// real client exchange a token before every request, or never refresh one.

// tokenTTL is how long an installation token lives, as on GitHub.
const tokenTTL = time.Hour

// jwtMaxLifetime is GitHub's limit on exp-iat; jwtSlack absorbs clock drift.
const (
	jwtMaxLifetime = 10 * time.Minute
	jwtSlack       = 60 * time.Second
)

// installationPermissions are the permissions every token is granted.
var installationPermissions = map[string]string{
	"checks":        "write",
	"contents":      "read",
	"issues":        "write",
	"members":       "read",
	"metadata":      "read",
	"pull_requests": "read",
}

// authenticateLocked checks the credential the route needs and records the
// installation it belongs to. The returned reply is the 401 to send, if any.
func (s *Server) authenticateLocked(c *call) *reply {
	scheme, cred, _ := strings.Cut(c.r.Header.Get("Authorization"), " ")
	scheme = strings.ToLower(scheme)
	cred = strings.TrimSpace(cred)
	unauthorized := func(msg string) *reply {
		rep := errorReply(http.StatusUnauthorized, msg, DocsURL)
		return &rep
	}
	if cred == "" || (scheme != "token" && scheme != "bearer") {
		return unauthorized("Requires authentication")
	}
	switch c.route.auth {
	case authApp:
		if c.route.template == routeAccessToken {
			c.installation = c.intParam("installation_id")
		}
		if scheme != "bearer" {
			return unauthorized("A JSON web token could not be decoded")
		}
		if err := verifyAppJWT(cred, s.opts.AppPublicKey, s.opts.AppID, time.Now()); err != nil {
			return unauthorized(err.Error())
		}
		return nil
	default:
		t, ok := s.tokens[cred]
		if !ok || !time.Now().Before(t.expires) {
			return unauthorized("Bad credentials")
		}
		c.installation, c.repoScope, c.actor = t.installation, t.repo, t.actor
		return nil
	}
}

// jwtError carries the message GitHub answers a rejected JWT with.
type jwtError string

// Error returns the message.
func (e jwtError) Error() string { return string(e) }

// verifyAppJWT checks an App JWT the way GitHub does: RS256 signed by the
// app's key (skipped when key is nil), issued by the app, not expired, and
// living at most ten minutes.
func verifyAppJWT(tok string, pub *rsa.PublicKey, appID int64, now time.Time) error {
	const undecodable = jwtError("A JSON web token could not be decoded")
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return undecodable
	}
	var header struct {
		Alg string `json:"alg"`
	}
	var claims struct {
		Iss json.RawMessage `json:"iss"`
		Iat *json.Number    `json:"iat"`
		Exp *json.Number    `json:"exp"`
	}
	if decodeSegment(parts[0], &header) != nil || decodeSegment(parts[1], &claims) != nil {
		return undecodable
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return undecodable
	}
	if pub == nil {
		return nil
	}
	if header.Alg != "RS256" {
		return undecodable
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest[:], sig) != nil {
		return undecodable
	}
	iss := strings.Trim(string(claims.Iss), `"`)
	if iss != strconv.FormatInt(appID, 10) {
		return jwtError("'Issuer' claim ('iss') must be an Integer")
	}
	iat, errIat := jsonSeconds(claims.Iat)
	exp, errExp := jsonSeconds(claims.Exp)
	switch {
	case errIat != nil:
		return jwtError("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued.")
	case errExp != nil || now.After(exp.Add(jwtSlack)):
		return jwtError("'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires.")
	case iat.After(now.Add(jwtSlack)):
		return jwtError("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued.")
	case exp.Sub(iat) > jwtMaxLifetime+jwtSlack:
		return jwtError("'Expiration time' claim ('exp') is too far in the future.")
	}
	return nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func jsonSeconds(n *json.Number) (time.Time, error) {
	if n == nil {
		return time.Time{}, errors.New("missing")
	}
	f, err := n.Float64()
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(f), 0), nil
}

// IssueToken mints an installation token without the JWT exchange, for tests
// that talk to the Server with a plain go-github client. It panics if the
// installation does not exist.
func (s *Server) IssueToken(installationID int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.installations[installationID]; !ok {
		panic(fmt.Sprintf("fakegithub: IssueToken: no installation %d", installationID))
	}
	tok, _ := s.issueTokenLocked(installationID)
	return tok
}

func (s *Server) issueTokenLocked(inst int64) (string, time.Time) {
	s.tokenSeq++
	tok := fmt.Sprintf("ghs_fake%04d%028d", inst%10000, s.tokenSeq)
	expires := time.Now().Add(tokenTTL).UTC().Truncate(time.Second)
	s.tokens[tok] = &token{installation: inst, expires: expires}
	return tok, expires
}

// createAccessToken: POST /app/installations/{installation_id}/access_tokens.
func (s *Server) createAccessToken(c *call) reply {
	in, ok := s.installations[c.installation]
	if !ok {
		return c.notFound()
	}
	tok, expires := s.issueTokenLocked(in.id)
	return reply{status: http.StatusCreated, body: accessTokenJSON{
		Token:               tok,
		ExpiresAt:           expires.Format(time.RFC3339),
		Permissions:         installationPermissions,
		RepositorySelection: "selected",
	}}
}

// listInstallations: GET /app/installations.
func (s *Server) listInstallations(c *call) reply {
	ids := s.installationIDsLocked()
	return pageReply(c, ids, func(id int64) installationJSON { return s.installationJSONLocked(s.installations[id]) })
}

// getInstallation: GET /app/installations/{installation_id}.
func (s *Server) getInstallation(c *call) reply {
	in, ok := s.installations[c.intParam("installation_id")]
	if !ok {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: s.installationJSONLocked(in)}
}

// getApp: GET /app.
func (s *Server) getApp(c *call) reply {
	owner := "octo"
	if ids := s.installationIDsLocked(); len(ids) > 0 {
		owner = s.installations[ids[0]].account
	}
	return reply{status: http.StatusOK, body: s.appJSONLocked(owner)}
}

// findRepoInstallation: GET /repos/{owner}/{repo}/installation.
func (s *Server) findRepoInstallation(c *call) reply {
	r := s.repoLocked(c.param("owner") + "/" + c.param("repo"))
	if r == nil {
		return c.notFound()
	}
	return reply{status: http.StatusOK, body: s.installationJSONLocked(s.installations[r.installation])}
}

// findAccountInstallation: GET /orgs/{org}/installation and
// GET /users/{username}/installation; each only finds accounts of its kind.
func (s *Server) findAccountInstallation(c *call) reply {
	account, wantOrg := c.param("org"), true
	if account == "" {
		account, wantOrg = c.param("username"), false
	}
	for _, id := range s.installationIDsLocked() {
		in := s.installations[id]
		isOrg := s.ownerTypeLocked(in.account) == "Organization"
		if key(in.account) == key(account) && isOrg == wantOrg {
			return reply{status: http.StatusOK, body: s.installationJSONLocked(in)}
		}
	}
	return c.notFound()
}

// listInstallationRepos: GET /installation/repositories.
func (s *Server) listInstallationRepos(c *call) reply {
	if c.actor != "" && c.actor != ActionsBotLogin {
		// A person's token is no installation's: GitHub refuses it here.
		return errorReply(http.StatusForbidden, "You must authenticate with an installation access token in order to list repositories for an installation.", c.route.docs)
	}
	in := s.installations[c.installation]
	if in == nil {
		return c.notFound()
	}
	rep := reply{status: http.StatusOK}
	start, end := paginate(c, len(in.repos), &rep)
	out := installationReposJSON{TotalCount: len(in.repos), RepositorySelection: "selected", Repositories: []repoJSON{}}
	for _, k := range in.repos[start:end] {
		out.Repositories = append(out.Repositories, s.repoJSONLocked(s.repos[k]))
	}
	rep.body = out
	return rep
}

// repoForCall resolves {owner}/{repo} for the caller's installation. A
// repository outside the token's installation is a 404, as on GitHub.
func (s *Server) repoForCall(c *call) (*repository, *reply) {
	r := s.repoLocked(c.param("owner") + "/" + c.param("repo"))
	if r == nil || r.installation != c.installation || (c.repoScope != "" && c.repoScope != key(r.fullName())) {
		rep := c.notFound()
		return nil, &rep
	}
	return r, nil
}

// IssuedTokens lists every installation token handed out, so a test can check that none
// leaks into a log.
func (s *Server) IssuedTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tokens))
	for tok := range s.tokens {
		out = append(out, tok)
	}
	sort.Strings(out)
	return out
}
