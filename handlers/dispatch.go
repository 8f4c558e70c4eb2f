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
	"github.com/clarify-app/clarify/render"
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
		return h.mirrorOnly(ctx, client, ref, trig)
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

// mirrorOnly writes a dispatch's mirror, or its refusal, as its run would, and folds and
// saves nothing (Mode.mirrorOnly). It takes no lock: like anyone's comment, the mirror
// may come while a run of the issue is under way, which folds it in or leaves it past the
// cursor for the next.
func (b *Base) mirrorOnly(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger) error {
	run := b.newRun(client, ref, trig)
	if err := run.loadIssue(ctx); err != nil {
		return err
	}
	lookups := newActorLookups(client, ref, &b.caches, b.BotLogin())
	run.lookups = lookups
	_, err := run.dispatched(ctx, lookups, run.cfg.Policy)
	return err
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

// dispatchKey is the marker key of the comment that answers a dispatch: its mirror, or
// its refusal.
func dispatchKey(guid string) string { return "dispatch:" + guid }

// mirrorBlock is the hidden, signed copy of a dispatched command.
func (id *Identity) mirrorBlock(ref clarify.IssueRef, m render.DispatchCopy) (string, error) {
	return id.keys(ref).EncodeDispatch(m)
}

// readMirror takes the signed copy out of one of the app's comments; false when there is
// none, or it does not verify under the issue's keys.
func (id *Identity) readMirror(ref clarify.IssueRef, c *github.IssueComment) (render.DispatchCopy, bool) {
	if !id.isSelf(c.User) {
		return render.DispatchCopy{}, false
	}
	m, ok := id.keys(ref).DecodeDispatch(c.GetBody())
	return m, ok && m.Holds(c.GetCreatedAt().Time)
}

// mirrorInput is what a mirror stands for: the sender's comment, with the mirror's id. An
// edited mirror reads as an edited comment, whose command is never run.
func (b *Base) mirrorInput(ref clarify.IssueRef, c *github.IssueComment) (input, bool) {
	m, ok := b.readMirror(ref, c)
	if !ok {
		return input{}, false
	}
	login, typ := m.Login, m.Type
	return input{
		event: clarify.Event{Kind: clarify.EventComment, CommentID: c.GetID(), Body: m.Command, At: c.GetCreatedAt().Time,
			Edited: c.GetUpdatedAt().Time.After(c.GetCreatedAt().Time), State: string(m.State), Nonce: m.Nonce, Mirrored: true},
		user:     &github.User{Login: &login, Type: &typ},
		delivery: m.Delivery,
	}, true
}

// input is the event a comment of the snapshot is: the sender's command for a mirror of a
// dispatch, the comment itself otherwise.
func (run *issueRun) input(c *github.IssueComment) input {
	if in, ok := run.mirrors[c.GetID()]; ok {
		return in
	}
	in := commentInput(c)
	in.app = run.apps[c.GetID()]
	return in
}

// dispatched readies a run for dispatched commands. Every run reads the mirrors among
// its comments, so that its fold takes each as the sender's. A run woken by a dispatch
// then finds the dispatch's mirror, or posts it (or, for a payload that is no command, a
// refusal), and goes on as a run woken by that comment; an outsider's dispatch, or one
// already answered, goes on as a tick.
func (run *issueRun) dispatched(ctx context.Context, lookups *actorLookups, p clarify.Policy) (trigger, error) {
	run.mirrors = map[int64]input{}
	seen := map[string]bool{} // a dispatch's delivery: the first comment that mirrors it is its mirror
	for _, c := range run.known() {
		if in, ok := run.mirrorInput(run.ref, c); ok && !seen[in.delivery] {
			run.mirrors[c.GetID()] = in
			seen[in.delivery] = true
		}
	}
	if run.trig.Kind != triggerDispatch || run.trig.Dispatch == nil {
		return run.trig, nil
	}
	d := run.trig.Dispatch
	logger := zerolog.Ctx(ctx)
	// The dispatch's trigger as it came (its issue, its sender, its payload's push), without
	// the command: a field added to triggers is carried without being named here.
	tick := run.trig
	tick.Kind, tick.Dispatch = triggerTick, nil
	mark := render.Marker(dispatchKey(d.GUID))
	found, err := run.findDispatch(ctx, mark)
	if err != nil {
		return run.trig, err
	}
	if found != nil {
		if _, ok := run.mirrors[found.GetID()]; !ok {
			logger.Info().Int64(LogKeyComment, found.GetID()).Msg("Dispatch already answered; nothing to do")
			return tick, nil
		}
		logger.Info().Int64(LogKeyComment, found.GetID()).Msg("Dispatch already mirrored; folding in its mirror")
		return mirrorTrigger(found, run.mirrors[found.GetID()], run.trig), nil
	}
	if quiet, err := run.writesNothing(ctx, lookups, d, run.ledger, p); err != nil || quiet {
		return tick, err
	}
	if d.Problem != nil {
		logger.Info().Str("problem", d.Problem.Problem).Msg("Dispatch is no command; refused")
		_, err := run.postOnce(ctx, mark, render.Reply(d.refusal(), run.ledger, dispatchKey(d.GUID)))
		return tick, err
	}
	block, err := run.mirrorBlock(run.ref, render.DispatchCopy{V: render.DispatchCopyVersion, Delivery: d.GUID, Login: d.Sender.GetLogin(),
		Type: d.Sender.GetType(), Command: d.Command, State: []byte(d.State), Nonce: d.Nonce, At: run.Now()})
	if err != nil {
		return run.trig, err
	}
	mention := clarify.MirrorMentions(d.Command, d.Sender.GetLogin())
	c, err := run.postOnce(ctx, mark, d.mirror(mention, block))
	if err != nil {
		return run.trig, fmt.Errorf("mirror of a dispatch: %w", err)
	}
	in, ok := run.mirrorInput(run.ref, c)
	if !ok {
		return run.trig, fmt.Errorf("mirror %d of a dispatch on %s does not verify", c.GetID(), run.ref.String())
	}
	run.mirrors[c.GetID()] = in
	logger.Info().Int64(LogKeyComment, c.GetID()).Msg("Dispatch mirrored")
	return mirrorTrigger(c, in, run.trig), nil
}

// writesNothing reports whether a dispatch gets nothing written, neither mirror nor
// refusal: an outsider's, or an ask that repeats the ref and nonce of an open clarification
// of its sender's (a retried step, whose clarification is already there): the sender is
// the dispatch's, in App and Action mode alike, and the nonce tells apart the workflows
// that all send as github-actions[bot].
func (b *Base) writesNothing(ctx context.Context, lookups *actorLookups, d *dispatchRequest, l clarify.Ledger, p clarify.Policy) (bool, error) {
	logger := zerolog.Ctx(ctx)
	if outsider, err := b.dispatchOutsider(ctx, lookups, d, l, p); err != nil || outsider {
		if outsider {
			logger.Info().Msg("Dispatch from someone without write access and no part in this issue's clarifications: nothing is written")
		}
		return outsider, err
	}
	if c, ok := clarify.SameAsk(l, d.Sender.GetLogin(), d.Ref, d.Nonce); ok && d.Problem == nil {
		logger.Info().Str("clarification", c.ID).Msg("Dispatch asks again with the ref of an open clarification of its sender: the same ask, not asked again")
		return true, nil
	}
	return false, nil
}

// mirror is the comment that stands for the request's command: a dispatch's, or a reply's
// in a decision issue.
func (d *dispatchRequest) mirror(mention []string, block string) string {
	if d.Decision > 0 {
		return render.ReplyMirror(d.Sender.GetLogin(), d.Decision, d.Command, mention, block, dispatchKey(d.GUID))
	}
	return render.Mirror(d.Sender.GetLogin(), d.Command, d.Nonce, mention, block, dispatchKey(d.GUID))
}

// refusal is the answer to a payload that is no command, in place of its mirror.
func (d *dispatchRequest) refusal() clarify.Reply {
	quote := "repository_dispatch clarify " + d.Sent
	if d.Decision > 0 {
		quote = fmt.Sprintf("a reply in #%d", d.Decision)
	}
	r := clarify.Reply{Kind: clarify.ReplyRefusal, Code: cmp.Or(d.Problem.Code, clarify.CodeBadCommand), To: d.Sender.GetLogin(),
		Quote: quote, Problem: d.Problem.Problem, Try: d.Problem.Try}
	if problem, _ := clarify.RefProblem(d.Ref); problem == "" {
		r.Ref = d.Ref
	}
	if clarify.NonceProblem(d.Nonce) == "" {
		r.Nonce = d.Nonce // so that the asker finds the refusal of its ask by its nonce
	}
	return r
}

// mirrorTrigger is the run's trigger once a dispatch has its mirror: that comment, sent by
// the dispatch's sender, and the rest of the dispatch's trigger as it came.
func mirrorTrigger(c *github.IssueComment, in input, trig trigger) trigger {
	trig.Kind, trig.Dispatch = triggerComment, nil
	trig.Comment, trig.Sender, trig.At = c, in.user, c.GetCreatedAt().Time
	return trig
}

// findDispatch returns the app's comment carrying mark, the answer to a dispatch, or nil.
// A snapshot of the comments since the cursor may miss the answer to a dispatch that is
// redelivered days later, so then the comments of the last dispatchLookBack are read.
func (run *issueRun) findDispatch(ctx context.Context, mark string) (*github.IssueComment, error) {
	for _, c := range run.known() {
		if run.carries(run.ref, c, mark) {
			return c, nil
		}
	}
	if !run.partial {
		return nil, nil
	}
	since := run.Now().Add(-dispatchLookBack)
	recent, err := ledger.ListCommentsSince(ctx, run.client, run.ref, since, 0)
	if err != nil {
		return nil, err
	}
	for _, c := range recent {
		if run.carries(run.ref, c, mark) {
			return c, nil
		}
	}
	return nil, nil
}

// dispatchOutsider reports whether the sender is one whose command Apply would ignore
// without a word, looking up only what that takes: a bot, a login the ledger knows or one
// with write access is none.
func (b *Base) dispatchOutsider(ctx context.Context, lookups *actorLookups, d *dispatchRequest, l clarify.Ledger, p clarify.Policy) (bool, error) {
	act, err := lookups.actor(ctx, b, d.Sender, d.Command, l, p)
	if err != nil || !clarify.IsOutsider(l, p, act) {
		return false, err
	}
	if act.Permission == "" {
		if act.Permission, err = lookups.permission(ctx, act.Login); err != nil {
			return false, err
		}
	}
	if act.Teams == nil {
		act.Teams = lookups.teams(ctx, l, p, act.Login)
	}
	return clarify.IsOutsider(l, p, act), nil
}
