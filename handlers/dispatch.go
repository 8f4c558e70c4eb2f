package handlers

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/wire"
)

// Commands sent through repository_dispatch.
//
// An agent that cannot or would rather not comment (a CI job holding a token, a bot that
// talks only to APIs) sends POST /repos/{owner}/{repo}/dispatches with
// {"event_type": "clarify", "client_payload": {"issue": 42, "action": "ask", …}}; GitHub
// delivers it as repository_dispatch, with the token's user as sender. The design keeps
// the ledger a fold over the issue's comments:
//
//   - A dispatch has no comment, and the ledger's cursor is a comment id. So the app first
//     writes one: the mirror, a comment of its own that quotes the command as a comment
//     would have said it and hides a signed copy of it (delivery GUID, sender and sender
//     type, the command text; an HMAC under the issue's ledger key).
//   - From then on the mirror is the command. Wherever a fold meets it (the run that posted
//     it, a catch-up after a failed run, a rebuild), it is applied as a comment of the
//     sender's whose CommentID is the mirror's id; the cursor moves past it like past any
//     comment, so no later fold applies it again. Every other comment of the app's stays
//     no input, and so does a mirror whose copy does not verify or that was edited.
//   - The mirror's marker carries the delivery GUID, which a redelivery keeps: a
//     redelivered dispatch finds its mirror and posts nothing, and folds it in only if no
//     run has yet. GitHub keeps deliveries three days, so a redelivery comes at most that
//     late: a run that read only the comments since its cursor looks dispatchLookBack
//     back before it concludes that the mirror is not there.
//   - Permission and scope are the fold's, exactly as for a comment: the sender is looked
//     up like a commenter, then routes, quotas, the issue's state. Only the outsider rule
//     is checked before the mirror is written, so that a drive-by cannot make the app
//     write by this road either.
//   - A payload that is no command (no known action, a field the action needs missing, a
//     field that is none of ours) gets a refusal naming the field, in place of the mirror
//     and under its marker. One without a usable issue number is logged and dropped: there
//     is no issue to answer in.

// dispatchLookBack is how far back a run looks for the mirror of a redelivered dispatch
// when it read only the comments since its cursor: GitHub keeps its deliveries, and so
// can redeliver them, for three days.
const dispatchLookBack = 4 * 24 * time.Hour

// maxDispatchCommand bounds a dispatched command: the mirror holds it twice (the quote,
// the signed copy in base64) within GitHub's 65,536 characters.
const maxDispatchCommand = 20_000

// Dispatch handles repository_dispatch events of type "clarify": a command sent without a
// comment, mirrored in the issue and then taken as the sender's comment.
// Payload: https://docs.github.com/en/webhooks/webhook-events-and-payloads#repository_dispatch
type Dispatch struct {
	*Base
}

var _ githubapp.EventHandler = (*Dispatch)(nil)

// Handles lists the events this handler takes.
func (h *Dispatch) Handles() []string { return []string{"repository_dispatch"} }

// Validate decodes the payload before the delivery is accepted, so a malformed one gets
// 400. The client_payload is the sender's, not GitHub's: its mistakes are answered in the
// issue, not with a 400.
func (h *Dispatch) Validate(eventType string, payload []byte) error {
	_, err := decodeDispatch(payload)
	return err
}

func decodeDispatch(payload []byte) (*github.RepositoryDispatchEvent, error) {
	var ev github.RepositoryDispatchEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	if ev.GetRepo().GetOwner().GetLogin() == "" || ev.GetRepo().GetName() == "" {
		return nil, errors.New("repository_dispatch payload lacks the repository")
	}
	return &ev, nil
}

// Accept marks the issue a dispatch names as having an ask in flight until the delivery
// has run, as for a comment holding a command.
func (h *Dispatch) Accept(eventType string, payload []byte) (done func()) {
	ev, err := decodeDispatch(payload)
	if err != nil || ev.GetAction() != wire.DispatchEventType || h.selfSender(ev.GetSender()) {
		return func() {}
	}
	n, err := wire.IssueOf(ev.ClientPayload)
	if err != nil {
		return func() {}
	}
	return h.active.begin(clarify.IssueRef{Owner: ev.GetRepo().GetOwner().GetLogin(), Repo: ev.GetRepo().GetName(), Number: n}.String())
}

// Handle mirrors a dispatched command in its issue and folds it in as the sender's.
func (h *Dispatch) Handle(ctx context.Context, eventType, deliveryID string, payload []byte) error {
	ev, err := decodeDispatch(payload)
	if err != nil {
		return githubapp.ValidationError{EventType: eventType, DeliveryID: deliveryID, Cause: err}
	}
	if ev.GetAction() != wire.DispatchEventType {
		return nil // another event_type: the repository's own workflows', not ours
	}
	ctx, logger := githubapp.PrepareRepoContext(ctx, ev.GetInstallation().GetID(), ev.GetRepo())
	logger = logger.With().Str(LogKeyAction, ev.GetAction()).Str(LogKeySender, ev.GetSender().GetLogin()).Logger()
	// Clarify never sends a dispatch of this type (its wake-ups are clarify-answered and
	// the like), so one from its account is an agent's that writes as it too (a workflow's
	// GITHUB_TOKEN), unless that account is the App's own.
	if h.selfSender(ev.GetSender()) || ev.GetSender().GetLogin() == "" {
		logger.Debug().Msg("Dispatch from the app itself or from nobody; ignored")
		return nil
	}
	number, err := wire.IssueOf(ev.ClientPayload)
	if err != nil {
		// Nowhere to say so: GitHub answered the sender's POST with 204 long ago.
		// Without an ask's state: a workflow's log is read by anyone who can read the repository.
		logger.Warn().Err(err).RawJSON("client_payload", withoutState(ev.ClientPayload)).
			Msg("Dispatch names no issue (client_payload.issue must be a positive number); dropped")
		return nil
	}
	req := parseDispatch(ev.ClientPayload, number, deliveryID, ev.GetSender())
	logger = logger.With().Int(LogKeyIssue, number).Logger()
	ctx = logger.WithContext(ctx)

	ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	ref := clarify.IssueRef{Owner: ev.GetRepo().GetOwner().GetLogin(), Repo: ev.GetRepo().GetName(), Number: number}
	trig, ok, err := dispatchTrigger(ctx, client, ref, req, h.Now(), ev.GetRepo())
	if !ok || err != nil {
		return err
	}
	if h.mode.mirrorOnly() {
		return h.newRun(client, ref, trig).mirrorOnly(ctx)
	}
	_, err = h.run(ctx, client, ref, trig)
	return err
}

// dispatchTrigger is the trigger of a run for req, a command without a comment of its own
// in issue ref: the payload carries no issue, so its state (a closed issue takes no new
// clarification), its labels and assignees are read here, as a comment's payload would carry
// them. false when the issue does not exist: the command is dropped, and logged.
func dispatchTrigger(ctx context.Context, client *github.Client, ref clarify.IssueRef, req *dispatchRequest, now time.Time,
	repo *github.Repository) (trigger, bool, error) {
	is, _, err := client.Issues.Get(ctx, ref.Owner, ref.Repo, ref.Number)
	if ledger.Gone(err) {
		zerolog.Ctx(ctx).Warn().Int(LogKeyIssue, ref.Number).Msg("A command sent without a comment names an issue that does not exist; dropped")
		return trigger{}, false, nil
	}
	if err != nil {
		return trigger{}, false, fmt.Errorf("read %s: %w", ref.String(), err)
	}
	return trigger{Kind: triggerDispatch, Dispatch: req, Sender: req.Sender, At: now,
		Issue: is, IssueClosed: is.GetState() == "closed", Push: pushOf(repo)}, true, nil
}

// dispatchProblem is why a payload is no command (wire.Problem).
type dispatchProblem = wire.Problem

// dispatchRequest is a dispatched command, as a run needs it.
type dispatchRequest struct {
	// GUID is the delivery's, which a redelivery keeps.
	GUID   string
	Sender *github.User
	// Command is the command as a comment would say it; empty when Problem is set.
	Command string
	Problem *dispatchProblem
	// Sent is the client_payload, compact, for a refusal to quote.
	Sent string
	// Ref, State and Nonce are the payload's context (Ref also in Command, as its `Ref:`
	// line), Ref and State an ask's only. State and Nonce go into the mirror's signed copy,
	// never its quote; Nonce into its record too.
	Ref, State, Nonce string
	// Decision is the decision issue a reply was made in, when the request is that reply's
	// (decision_reply.go) rather than a dispatch's; 0 otherwise.
	Decision int
}

// EventIssue is the issue or pull request an event's payload names: issue.number,
// pull_request.number, or a repository_dispatch's client_payload.issue as the dispatch
// handler reads it (wire.IssueOf); 0 when it names none. What the runs, bot action's
// report and the replay's account of touched issues take an event to be about.
func EventIssue(payload []byte) int {
	var p struct {
		Issue struct {
			Number int `json:"number"`
		} `json:"issue"`
		PullRequest struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		ClientPayload json.RawMessage `json:"client_payload"`
	}
	if json.Unmarshal(payload, &p) != nil {
		return 0
	}
	dispatched, _ := wire.IssueOf(p.ClientPayload)
	return cmp.Or(p.Issue.Number, p.PullRequest.Number, dispatched)
}

// parseDispatch reads the client_payload of a dispatch for issue number (wire.IssueOf)
// into the command it stands for.
func parseDispatch(raw json.RawMessage, number int, guid string, sender *github.User) *dispatchRequest {
	req := &dispatchRequest{GUID: guid, Sender: sender, Sent: string(withoutState(raw))}
	p, problem := wire.Decode(raw, number)
	if problem != nil {
		req.Problem = problem
		return req
	}
	if p.Context != nil {
		// Every action may carry a nonce, which its mirror names for the asker to find it
		// by; only an ask a ref and a state.
		req.Nonce = p.Context.Nonce
		if strings.EqualFold(strings.TrimSpace(p.Action), "ask") {
			req.Ref, req.State = strings.TrimSpace(p.Context.Ref), p.Context.State
		}
	}
	cmd, problem := p.Command()
	switch {
	case problem != nil:
		req.Problem = problem
	case len(cmd) > maxDispatchCommand:
		req.Problem = &dispatchProblem{
			Problem: fmt.Sprintf("this command is %d bytes long; a dispatched one may have at most %d.", len(cmd), maxDispatchCommand),
			Try:     "shorten the question, or put the long part in a file of the repository and name it in `evidence`.",
		}
	default:
		req.Command = cmd
	}
	return req
}

// withoutState is a client_payload as a refusal quotes it: compact, with an ask's state
// (up to 8 KiB of the asker's own data, of no use in the thread) shown only by its size.
func withoutState(raw json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	var ctx map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || json.Unmarshal(top["context"], &ctx) != nil || ctx["state"] == nil {
		return compactJSON(raw)
	}
	var state string
	if json.Unmarshal(ctx["state"], &state) == nil {
		ctx["state"], _ = json.Marshal(fmt.Sprintf("(%d bytes, not shown)", len(state)))
	} else {
		ctx["state"] = json.RawMessage(`"(not shown)"`)
	}
	top["context"], _ = json.Marshal(ctx)
	out, err := json.Marshal(top)
	if err != nil {
		return compactJSON(raw)
	}
	return out
}

// compactJSON is raw without insignificant space, or "null".
func compactJSON(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil || b.Len() == 0 {
		return json.RawMessage("null")
	}
	return b.Bytes()
}
