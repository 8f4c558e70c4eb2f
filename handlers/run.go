package handlers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/labels"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// refOf names the issue a payload is about.
func refOf(repo *github.Repository, issue *github.Issue) clarify.IssueRef {
	return clarify.IssueRef{Owner: repo.GetOwner().GetLogin(), Repo: repo.GetName(), Number: issue.GetNumber()}
}

// triggerKind says what woke a run. Whatever it is, a run also folds in every comment
// newer than the ledger's cursor and lets time act.
type triggerKind int

const (
	// triggerTick brings nothing new but time: the sweep's visit, or the repair of a status
	// comment someone else edited or deleted.
	triggerTick triggerKind = iota
	// triggerComment is a new comment, carried in the payload.
	triggerComment
	// triggerIssue is an issue closed or reopened.
	triggerIssue
	// triggerBreak is the sweep escalating one clarification to break a deadlock.
	triggerBreak
	// triggerDispatch is a command sent through repository_dispatch; the run mirrors it in
	// a comment of the app's, which then stands for it as a triggerComment (dispatch.go).
	triggerDispatch
)

// trigger is the event that woke a run.
type trigger struct {
	Kind triggerKind
	// Comment is the payload's comment for triggerComment: its body is the one at creation,
	// which the comment list may already show edited.
	Comment *github.IssueComment
	// CommentApp is the App the payload's comment was made through, "" for none.
	CommentApp string
	// Event is clarify.EventClosed or clarify.EventReopened for triggerIssue.
	Event clarify.EventKind
	// Break names the clarification to escalate for triggerBreak.
	Break deadlockBreak
	// Sender is whoever caused the event; At is when it happened.
	Sender *github.User
	At     time.Time
	// Issue is the issue as the payload (or the sweep's issue list) gives it: the labels
	// it carries, and who to tell of an escalation when the repository names nobody.
	Issue *github.Issue
	// Listed says Issue came from the sweep (its list of issues, or a read of the issue)
	// rather than a payload, so its updated_at predates what the run reads.
	Listed bool
	// IssueClosed says the payload showed the issue closed; a rebuild, which sees only
	// comments, needs it to abandon what the close abandoned.
	IssueClosed bool
	// Replaced is the status comment's body before someone else's edit, from the edit's
	// payload: its ledger's revision tells an older body put back from the edit history.
	Replaced string
	// Deleted is the status comment someone deleted, from the deletion's payload.
	Deleted *github.IssueComment
	// Dispatch is the command of a triggerDispatch.
	Dispatch *dispatchRequest
	// TakenOff is the decision issue whose edge to this issue someone else took off
	// (relation_events.go), for the run to look at.
	TakenOff int
	// Push is where the repository's branches stood as the payload showed them (pushOf);
	// unknown for the sweep's runs.
	Push clarify.Push
}

// deadlockBreak names the clarification the sweep escalates and why.
type deadlockBreak struct {
	ID, Reason string
}

// run is the one path every event and every sweep takes: one issueRun, through the stages
// in order. It returns the ledger as saved.
func (b *Base) run(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger) (_ clarify.Ledger, err error) {
	run := b.newRun(client, ref, trig)
	// A run that fails before its save leaves the issue due, so the next sweep runs it
	// again; after the save, the index already holds the issue's real deadline.
	savedOK := false
	defer func() {
		if err != nil && !savedOK {
			run.indexFailed(ctx)
		}
	}()
	unlock, err := b.locks.Lock(ctx, ref.String())
	if err != nil {
		return clarify.Ledger{}, fmt.Errorf("wait for %s: %w", ref.String(), err)
	}
	defer unlock()
	ctx, _ = ghtransport.WithWriteClock(ctx)
	saved, err := run.stages(ctx)
	if err != nil {
		return clarify.Ledger{}, err
	}
	savedOK = true
	kept := run.checkMemoryWrites(ctx)
	run.noteSaved(ctx, saved)
	// 6. The wake-ups of agents waiting on what settled (wake.go), then the labels that no
	// longer match what was saved come off.
	return saved, errors.Join(kept, run.afterSave(ctx, saved))
}

// newRun is the run of issue ref that trig woke, with client.
func (b *Base) newRun(client *github.Client, ref clarify.IssueRef, trig trigger) *issueRun {
	return &issueRun{Base: b, client: client, ref: ref, trig: trig}
}

// stages runs the stages up to the save, in order, and returns the ledger as saved.
func (run *issueRun) stages(ctx context.Context) (clarify.Ledger, error) {
	// 1. The snapshot: comments, the ledger, its archives; then the config.
	if err := run.loadIssue(ctx); err != nil {
		return clarify.Ledger{}, err
	}
	// 2. The fold: what is new, then time, then a deadlock break.
	if err := run.foldIssue(ctx); err != nil {
		return clarify.Ledger{}, err
	}
	// 3. The labels, decided first so the ledger saved records those the app puts on; they go
	// on before anything is posted, so that a reply mentioning someone carries the label a
	// workflow's job needs to start (docs/workflow.md). Those to take off come off last.
	if err := run.labelsToSave(ctx); err != nil {
		return clarify.Ledger{}, err
	}
	// 4. The effects: notices first, then what the fold asked for, each posted once; the
	// decision memory; the relations; the checks of linked pull requests; the hints.
	for _, stage := range []func(context.Context) error{run.report, run.carryOut, run.rememberOffersAndDecisions, run.relate} {
		if err := stage(ctx); err != nil {
			return clarify.Ledger{}, err
		}
	}
	run.checkPullRequests(ctx)
	run.noteHints()
	// 5. The save: the status comment, and archives when it grows too big.
	return run.save(ctx)
}

// afterSave is the run's last stage: the wake-ups, the labels that come off, and the index
// entry brought up to the run's last write (indexWrites).
func (run *issueRun) afterSave(ctx context.Context, saved clarify.Ledger) error {
	plan := run.plan
	woke := run.wake(ctx, saved)
	tookOff := labels.TakeOff(ctx, run.client, &run.labelsSet, run.ref, plan)
	run.indexWrites(ctx)
	return errors.Join(woke, tookOff)
}

// loadIssue reads the issue's snapshot, then the repository's config: the snapshot needs
// none, and its ledger's hints (hints.go) may spare the config's read and the label's.
func (run *issueRun) loadIssue(ctx context.Context) error {
	if err := run.load(ctx, run.revFloorOf(), longIssue(run.mode, run.trig)); err != nil {
		return err
	}
	run.recoverHead(ctx, run.trig.Replaced)
	run.lostStatus(run.trig)
	run.followHints(run.ledger.Hints)
	cfg, err := run.configs.loadAfter(ctx, run.client, run.ref.Owner, run.ref.Repo, run.hintRun())
	if err != nil {
		return fmt.Errorf("load config of %s/%s: %w", run.ref.Owner, run.ref.Repo, err)
	}
	run.cfg = cfg
	return nil
}

// foldIssue folds into the snapshot's ledger what is new (a dispatch's command first),
// then time, then a deadlock break, into run.folded; the trigger is left as the dispatch
// left it.
func (run *issueRun) foldIssue(ctx context.Context) error {
	lookups := newActorLookups(run.client, run.ref, &run.caches, run.BotLogin())
	run.lookups = lookups
	actorOf := func(in input, l clarify.Ledger) (clarify.Actor, error) {
		act, err := lookups.actor(ctx, run.Base, in.user, in.event.Body, l, run.cfg.Policy)
		act.App = in.app
		return act, err
	}
	trig, err := run.dispatched(ctx)
	run.trig = trig
	if err != nil {
		return err
	}
	env := folding{policy: run.cfg.Policy, now: run.Now(), actorOf: actorOf, roomFor: func(l clarify.Ledger) bool { return run.roomFor(l, run.headRoom()) }}
	run.folded, err = fold(ctx, run.ledger, run.events(), env, run.trig)
	if err != nil {
		return err
	}
	// Then what precedent settles now, and the earlier decisions new questions are offered.
	return run.precedentsAndOffers(ctx)
}

// noteSaved tells what a saved ledger changes beyond the issue: the metrics, the active
// issues, the deadline index, the newest revision, what the next run may skip and the
// repository's dashboard.
func (run *issueRun) noteSaved(ctx context.Context, saved clarify.Ledger) {
	f := run.folded
	if run.onSaved != nil {
		run.onSaved(run.ledger, saved)
	}
	run.active.saved(run.ref.String(), len(saved.Open()) > 0)
	run.indexSaved(ctx, saved, run.cfg.Policy, seenOf(run.trig))
	run.revs.raise(run.ref.String(), saved.Rev)
	run.remember(max(f.ledger.Cursor, run.skipTo))
	run.appIssues.NoteDashboard(run.client, run.ref, run.cfg.Dashboard, run.ledger, saved, f.effects)
}

// labelsToSave plans the issue's labels against the folded ledger l, from the labels it
// carries as far as the run can tell, records in l those the app puts on, and puts them on;
// it returns the plan, whose labels to take off wait for the save (labels.TakeOff).
func (run *issueRun) labelsToSave(ctx context.Context) error {
	l := &run.folded.ledger
	current, err := run.currentLabels(ctx, run.ledger)
	if err != nil {
		return err
	}
	plan := labels.Decide(&run.labelsSet, run.ref, labels.Of(run.cfg.Labels), current, *l)
	if labels.DoneAlready(&run.labelsSet, run.ref, plan) {
		if current, err = labels.Read(ctx, run.client, run.ref); err != nil {
			return err
		}
		plan = labels.Decide(&run.labelsSet, run.ref, labels.Of(run.cfg.Labels), current, *l)
	}
	l.Labels = plan.Owned
	run.plan = plan
	return labels.PutOn(ctx, run.client, &run.labelsSet, run.ref, plan)
}
