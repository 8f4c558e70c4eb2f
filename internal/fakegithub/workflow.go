package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// A workflow's GITHUB_TOKEN, as GitHub Actions hands it to a job: an installation token of
// GitHub's own Actions app that reaches the one repository the workflow runs in, and whose
// comments, edits and reactions are github-actions[bot]'s, the account every workflow of
// the repository shares.
// https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication
const (
	// ActionsBotLogin is the account a GITHUB_TOKEN writes as.
	ActionsBotLogin = "github-actions[bot]"
	// ActionsBotID is github-actions[bot]'s user id on github.com.
	ActionsBotID int64 = 41898282
)

// WorkflowToken mints the GITHUB_TOKEN of a workflow run in repo: accepted for that
// repository only (any other answers 404, as GitHub hides what a token cannot see), and
// what it writes is authored by github-actions[bot]. It panics if repo does not exist.
func (s *Server) WorkflowToken(repo string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil {
		panic(fmt.Sprintf("fakegithub: WorkflowToken: no repository %s", repo))
	}
	if _, ok := s.users[key(ActionsBotLogin)]; !ok {
		s.users[key(ActionsBotLogin)] = &user{login: ActionsBotLogin, id: ActionsBotID, typ: "Bot"}
	}
	tok, _ := s.issueTokenLocked(r.installation)
	t := s.tokens[tok]
	t.repo, t.actor = key(r.fullName()), ActionsBotLogin
	return tok
}

// PersonalToken mints a fine-grained personal access token of login's limited to repo
// (an agent's own account asking with its token): accepted for that repository only, and
// what it writes is login's. It panics if repo does not exist.
// https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens#fine-grained-personal-access-tokens
func (s *Server) PersonalToken(repo, login string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil {
		panic(fmt.Sprintf("fakegithub: PersonalToken: no repository %s", repo))
	}
	u := s.userLocked(login)
	s.tokenSeq++
	tok := fmt.Sprintf("github_pat_fake%06d_%s", s.tokenSeq, strings.ToLower(u.login))
	s.tokens[tok] = &token{installation: r.installation, expires: time.Now().Add(24 * time.Hour), repo: key(r.fullName()), actor: u.login}
	return tok
}

// author is the account the call's writes are attributed to: github-actions[bot] for a
// workflow token, the app's bot for an installation token.
func (c *call) author() string {
	if c.actor != "" {
		return c.actor
	}
	return c.s.BotLogin()
}

// RouteDispatches creates a repository_dispatch event.
const RouteDispatches = "POST /repos/{owner}/{repo}/dispatches"

const docsDispatches = "https://docs.github.com/rest/repos/repos#create-a-repository-dispatch-event"

// GitHub's bounds on a dispatch: event_type is 1 to 100 characters, and client_payload
// has at most 10 top-level properties and is no more than 64 KB.
const (
	maxDispatchEventType    = 100
	maxDispatchProperties   = 10
	maxDispatchPayloadBytes = 64 << 10
)

// SentDispatch is one repository_dispatch created through the API.
type SentDispatch struct {
	Repo      string
	Sender    string
	EventType string
	// ClientPayload is the client_payload as sent, verbatim.
	ClientPayload json.RawMessage
}

// createDispatch: POST /repos/{owner}/{repo}/dispatches. GitHub answers 204 and starts
// the repository's workflows on repository_dispatch, and sends the event to the apps
// subscribed to it, even when a workflow's own token sent it; the delivery goes to the
// outbox like any other.
func (s *Server) createDispatch(c *call) reply {
	r, rep := s.repoForCall(c)
	if rep != nil {
		return *rep
	}
	var in struct {
		EventType     string          `json:"event_type"`
		ClientPayload json.RawMessage `json:"client_payload"`
	}
	if rep := c.decode(&in); rep != nil {
		return *rep
	}
	if in.EventType == "" || len(in.EventType) > maxDispatchEventType {
		return validationFailed(c.route.docs, fieldError{Resource: "Repository", Code: "custom", Field: "event_type",
			Message: "event_type must be 1 to 100 characters"})
	}
	var props map[string]json.RawMessage
	if len(in.ClientPayload) > 0 && !strings.EqualFold(string(in.ClientPayload), "null") {
		if err := json.Unmarshal(in.ClientPayload, &props); err != nil {
			return validationFailed(c.route.docs, fieldError{Resource: "Repository", Code: "invalid", Field: "client_payload",
				Message: "client_payload is not an object"})
		}
	}
	if len(props) > maxDispatchProperties {
		return validationFailed(c.route.docs, fieldError{Resource: "Repository", Code: "custom", Field: "client_payload",
			Message: fmt.Sprintf("No more than %d properties are allowed; %d were supplied.", maxDispatchProperties, len(props))})
	}
	if len(in.ClientPayload) > maxDispatchPayloadBytes {
		return validationFailed(c.route.docs, fieldError{Resource: "Repository", Code: "custom", Field: "client_payload",
			Message: fmt.Sprintf("client_payload is %d bytes; it can't be more than 64 KB.", len(in.ClientPayload))})
	}
	sender := c.author()
	s.dispatches = append(s.dispatches, SentDispatch{Repo: r.fullName(), Sender: sender, EventType: in.EventType,
		ClientPayload: in.ClientPayload})
	s.outbox = append(s.outbox, s.newDeliveryLocked("repository_dispatch", repositoryDispatchPayload{
		Action:        in.EventType,
		Branch:        "main",
		ClientPayload: in.ClientPayload,
		Repository:    s.repoJSONLocked(r),
		Organization:  s.orgJSONLocked(r.owner),
		Sender:        s.userJSONLocked(sender),
		Installation:  installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)},
	}))
	return reply{status: http.StatusNoContent}
}

// Dispatches lists the repository_dispatch events created through the API in repo, oldest
// first.
func (s *Server) Dispatches(repo string) []SentDispatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []SentDispatch
	for _, d := range s.dispatches {
		if key(d.Repo) == key(repo) {
			out = append(out, d)
		}
	}
	return out
}
