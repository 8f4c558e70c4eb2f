package asker

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/wire"
)

// commentBody is the ask as a comment says it: the command, its ref on a Ref: line.
func commentBody(a Ask) string {
	cmd := a.command()
	cmd.Ref = a.Ref
	return clarify.FormatCommand(cmd)
}

// dispatchPayloadOf is the ask as a clarify dispatch's client_payload, its ref and state
// under context.
func dispatchPayloadOf(a Ask) json.RawMessage {
	p := wire.DispatchPayload{Issue: a.Issue.Number, Action: string(clarify.CmdAsk), Target: a.Target,
		Question: a.Question, Topic: a.Topic, Options: a.Options, Fallback: a.Fallback}
	p.Expect, p.Needs = a.Expect, a.Needs
	if a.NonBlocking {
		no := false
		p.Blocking = &no
	}
	if a.Ref != "" || a.State != "" || a.nonce != "" {
		p.Context = &wire.AskContext{Ref: a.Ref, State: a.State, Nonce: a.nonce}
	}
	b, _ := json.Marshal(p) // a DispatchPayload always marshals
	return b
}

// sendDispatch sends payload as a clarify repository_dispatch to issue's repository; what
// it is about says what failed.
func (c *Client) sendDispatch(ctx context.Context, issue clarify.IssueRef, payload json.RawMessage, what string) error {
	_, _, err := c.gh.Repositories.Dispatch(ctx, issue.Owner, issue.Repo, github.DispatchRequestOptions{
		EventType: wire.DispatchEventType, ClientPayload: &payload})
	if err != nil {
		return fmt.Errorf("send %s to %s as a repository_dispatch: %w", what, issue.FullName(), err)
	}
	return nil
}

// newNonce is the nonce of a dispatched settle: random, since a settle has no ref to be
// asked again by, and nobody can know it before its mirror names it.
func newNonce() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// nonceOf is the nonce of a dispatched ask in issue with ref: an HMAC of them under the
// caller's token, which cannot be had back from it. A retried step, with the
// same token and ref, sends the same nonce, and so is answered with the clarification it
// opened the first time (clarify.SameAsk); an ask of any other token, a workflow of the
// same repository sending as the same github-actions[bot] too, sends another.
func (c *Client) nonceOf(issue clarify.IssueRef, ref string) string {
	m := hmac.New(sha256.New, c.token)
	m.Write([]byte("clarify ask nonce\x00" + strings.ToLower(issue.String()) + "\x00" + ref))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}
