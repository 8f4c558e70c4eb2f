package fakegithub

import (
	"encoding/json"
	"fmt"
)

// repositoryDispatchPayload is a repository_dispatch webhook payload: action is the
// event_type the sender posted, client_payload what they sent with it, verbatim.
// https://docs.github.com/webhooks/webhook-events-and-payloads#repository_dispatch
type repositoryDispatchPayload struct {
	Action        string              `json:"action"`
	Branch        string              `json:"branch"`
	ClientPayload json.RawMessage     `json:"client_payload"`
	Repository    repoJSON            `json:"repository"`
	Organization  *orgJSON            `json:"organization,omitempty"`
	Sender        userJSON            `json:"sender"`
	Installation  installationRefJSON `json:"installation"`
}

// Dispatch has sender POST /repos/{repo}/dispatches with eventType and clientPayload
// (encoded as JSON; a json.RawMessage or []byte is sent as it is) and returns the
// repository_dispatch delivery GitHub sends the app. GitHub takes a dispatch only from a
// token with write access to the repository; the fake does not check, so that a test can
// see the app hold its own line.
func (s *Server) Dispatch(repo, sender, eventType string, clientPayload any) Delivery {
	raw, ok := clientPayload.(json.RawMessage)
	if b, isBytes := clientPayload.([]byte); isBytes {
		raw, ok = b, true
	}
	if !ok {
		var err error
		if raw, err = json.Marshal(clientPayload); err != nil {
			panic(fmt.Sprintf("fakegithub: Dispatch: client payload: %v", err))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repoLocked(repo)
	if r == nil {
		panic(fmt.Sprintf("fakegithub: Dispatch: no repository %s", repo))
	}
	s.userLocked(sender)
	return s.newDeliveryLocked("repository_dispatch", repositoryDispatchPayload{
		Action:        eventType,
		Branch:        "main",
		ClientPayload: raw,
		Repository:    s.repoJSONLocked(r),
		Organization:  s.orgJSONLocked(r.owner),
		Sender:        s.userJSONLocked(sender),
		Installation:  installationRefJSON{ID: r.installation, NodeID: nodeID("IntegrationInstallation", r.installation)},
	})
}
