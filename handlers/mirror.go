package handlers

import (
	"cmp"
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// mirrorOnly writes a dispatch's mirror, or its refusal, as its run would, and folds and
// saves nothing (Mode.mirrorOnly). It takes no lock: like anyone's comment, the mirror
// may come while a run of the issue is under way, which folds it in or leaves it past the
// cursor for the next.
func (run *issueRun) mirrorOnly(ctx context.Context) error {
	if err := run.loadIssue(ctx); err != nil {
		return err
	}
	run.lookups = newActorLookups(run.client, run.ref, &run.caches, run.BotLogin())
	_, err := run.dispatched(ctx)
	return err
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
func (id *Identity) mirrorInput(ref clarify.IssueRef, c *github.IssueComment) (input, bool) {
	m, ok := id.readMirror(ref, c)
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
func (run *issueRun) dispatched(ctx context.Context) (trigger, error) {
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
	if quiet, err := run.writesNothing(ctx, d, run.ledger); err != nil || quiet {
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
func (run *issueRun) writesNothing(ctx context.Context, d *dispatchRequest, l clarify.Ledger) (bool, error) {
	logger := zerolog.Ctx(ctx)
	if outsider, err := run.dispatchOutsider(ctx, d, l); err != nil || outsider {
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
	return run.markedSince(ctx, mark, dispatchLookBack)
}

// dispatchOutsider reports whether the sender is one whose command Apply would ignore
// without a word, looking up only what that takes: a bot, a login the ledger knows or one
// with write access is none.
func (run *issueRun) dispatchOutsider(ctx context.Context, d *dispatchRequest, l clarify.Ledger) (bool, error) {
	act, err := run.lookups.actor(ctx, run.Base, d.Sender, d.Command, l, run.cfg.Policy)
	if err != nil || !clarify.IsOutsider(l, run.cfg.Policy, act) {
		return false, err
	}
	if act.Permission == "" {
		if act.Permission, err = run.lookups.permission(ctx, act.Login); err != nil {
			return false, err
		}
	}
	if act.Teams == nil {
		act.Teams = run.lookups.teams(ctx, l, run.cfg.Policy, act.Login)
	}
	return clarify.IsOutsider(l, run.cfg.Policy, act), nil
}
