package handlers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

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

// run is the one path every event and every sweep takes. It returns the ledger as saved.
func (b *Base) run(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger) (_ clarify.Ledger, err error) {
	// A run that fails before its save leaves the issue due, so the next sweep runs it
	// again; after the save, the index already holds the issue's real deadline.
	savedOK := false
	defer func() {
		if err != nil && !savedOK {
			b.indexFailed(ctx, ref)
		}
	}()
	unlock, err := b.Locks.Lock(ctx, ref.String())
	if err != nil {
		return clarify.Ledger{}, fmt.Errorf("wait for %s: %w", ref.String(), err)
	}
	defer unlock()
	ctx, _ = ghtransport.WithWriteClock(ctx)

	// 1. The snapshot: comments, the ledger, its archives; then the config.
	snap, cfg, err := b.loadIssue(ctx, client, ref, trig)
	if err != nil {
		return clarify.Ledger{}, err
	}
	// 2. The fold: what is new, then time, then a deadlock break.
	f, trig, err := b.foldIssue(ctx, client, ref, snap, trig, cfg)
	if err != nil {
		return clarify.Ledger{}, err
	}
	// 3. The labels, decided first so the ledger saved records those the app puts on; they go
	// on before anything is posted, so that a reply mentioning someone carries the label a
	// workflow's job needs to start (docs/workflow.md). Those to take off come off last.
	plan, err := b.labelsToSave(ctx, client, ref, trig, snap, cfg, &f.ledger)
	if err != nil {
		return clarify.Ledger{}, err
	}
	// 4. The effects: notices first, then what the fold asked for, each posted once.
	if err := b.report(ctx, client, ref, snap, cfg); err != nil {
		return clarify.Ledger{}, err
	}
	if err := b.carryOut(ctx, client, ref, snap, f.ledger, withEscalationFallback(cfg.Policy, trig.Issue), f.effects); err != nil {
		return clarify.Ledger{}, err
	}
	if err := b.rememberOffersAndDecisions(ctx, client, ref, snap, cfg, &f.ledger); err != nil {
		return clarify.Ledger{}, err
	}
	if err := b.relate(ctx, client, ref, cfg, trig, &f.ledger); err != nil {
		return clarify.Ledger{}, err
	}
	b.checkPullRequests(ctx, client, ref, snap.ledger, f.ledger)
	b.noteHints(ref, snap, cfg, trig.Push, &f.ledger)
	// 5. The save: the status comment, and archives when it grows too big.
	saved, err := b.save(ctx, client, ref, snap, f.ledger, f.applied)
	if err != nil {
		return clarify.Ledger{}, err
	}
	savedOK = true
	kept := b.checkMemoryWrites(ctx, client, ref, snap)
	b.noteSaved(ctx, client, ref, snap, f, saved, cfg, trig)
	// 6. The wake-ups of agents waiting on what settled (wake.go), then the labels that no
	// longer match what was saved come off.
	return saved, errors.Join(kept, b.afterSave(ctx, client, ref, snap, saved, cfg, plan))
}

// afterSave is the run's last stage: the wake-ups, the labels that come off, and the index
// entry brought up to the run's last write (indexWrites).
func (b *Base) afterSave(ctx context.Context, client *github.Client, ref clarify.IssueRef, snap *issueRun, saved clarify.Ledger, cfg RepoConfig, plan labels.Plan) error {
	woke := b.wake(ctx, client, ref, snap, saved, cfg.Notify)
	tookOff := labels.TakeOff(ctx, client, &b.labelsSet, ref, plan)
	b.indexWrites(ctx, ref)
	return errors.Join(woke, tookOff)
}

// loadIssue reads the issue's snapshot, then the repository's config: the snapshot needs
// none, and its ledger's hints (hints.go) may spare the config's read and the label's.
func (b *Base) loadIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger) (*issueRun, RepoConfig, error) {
	snap, err := b.load(ctx, client, ref, b.revFloor(ref, trig), longIssue(b.mode, trig))
	if err != nil {
		return nil, RepoConfig{}, err
	}
	snap.recoverHead(ctx, trig.Replaced)
	snap.lostStatus(trig)
	b.followHints(ref, snap.ledger.Hints)
	cfg, err := b.Configs.loadAfter(ctx, client, ref.Owner, ref.Repo, snap.hintRun(trig, b.BotLogin()))
	if err != nil {
		return nil, RepoConfig{}, fmt.Errorf("load config of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	return snap, cfg, nil
}

// foldIssue folds into the snapshot's ledger what is new (a dispatch's command first),
// then time, then a deadlock break; it returns the trigger as the dispatch left it.
func (b *Base) foldIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef, snap *issueRun, trig trigger, cfg RepoConfig) (folded, trigger, error) {
	lookups := newActorLookups(client, ref, &b.caches, b.BotLogin())
	snap.lookups = lookups
	actorOf := func(in input, l clarify.Ledger) (clarify.Actor, error) {
		act, err := lookups.actor(ctx, b, in.user, in.event.Body, l, cfg.Policy)
		act.App = in.app
		return act, err
	}
	trig, err := b.dispatched(ctx, client, ref, snap, trig, lookups, cfg.Policy)
	if err != nil {
		return folded{}, trig, err
	}
	env := folding{policy: cfg.Policy, now: b.Now(), actorOf: actorOf, roomFor: func(l clarify.Ledger) bool { return b.roomFor(l, snap.headRoom()) }}
	f, err := fold(ctx, snap.ledger, b.events(snap, trig), env, trig)
	if err != nil {
		return f, trig, err
	}
	// Then what precedent settles now, and the earlier decisions new questions are offered.
	return f, trig, b.precedentsAndOffers(ctx, client, ref, snap, cfg, &f)
}

// checkPullRequests sets the checks of linked pull requests, before the save, best
// effort: a pull request's check must never hold up the issue's ledger. An update that
// fails or is deferred is owed: the issue is made due (indexSaved), and its next run
// brings the checks in line even though its blocking clarifications did not change, which
// a settled issue's never do again.
func (b *Base) checkPullRequests(ctx context.Context, client *github.Client, ref clarify.IssueRef, before, after clarify.Ledger) {
	_, owed := b.checksOwed.get(ref.String())
	err := b.syncChecks(ctx, client, ref, before, after, owed)
	if err == nil {
		b.checksOwed.forget(ref.String())
		return
	}
	b.checksOwed.put(ref.String(), true)
	zerolog.Ctx(ctx).Warn().Err(err).Msg("Checks of the pull requests linking the issue not updated; the next sweep tries again")
}

// noteSaved tells what a saved ledger changes beyond the issue: the metrics, the active
// issues, the deadline index, the newest revision, what the next run may skip and the
// repository's dashboard.
func (b *Base) noteSaved(ctx context.Context, client *github.Client, ref clarify.IssueRef, snap *issueRun, f folded, saved clarify.Ledger, cfg RepoConfig, trig trigger) {
	if b.OnSaved != nil {
		b.OnSaved(snap.ledger, saved)
	}
	b.active.saved(ref.String(), len(saved.Open()) > 0)
	b.indexSaved(ctx, ref, saved, cfg.Policy, seenOf(trig))
	b.revs.raise(ref.String(), saved.Rev)
	b.remember(ref, snap, max(f.ledger.Cursor, snap.skipTo))
	b.appIssues.NoteDashboard(client, ref, cfg.Dashboard, snap.ledger, saved, f.effects)
}

// labelsToSave plans the issue's labels against the folded ledger l, from the labels it
// carries as far as the run can tell, records in l those the app puts on, and puts them on;
// it returns the plan, whose labels to take off wait for the save (labels.TakeOff).
func (b *Base) labelsToSave(ctx context.Context, client *github.Client, ref clarify.IssueRef, trig trigger, snap *issueRun, cfg RepoConfig, l *clarify.Ledger) (labels.Plan, error) {
	current, err := b.currentLabels(ctx, client, ref, trig, snap.ledger)
	if err != nil {
		return labels.Plan{}, err
	}
	plan := labels.Decide(&b.labelsSet, ref, labels.Of(cfg.Labels), current, *l)
	if labels.DoneAlready(&b.labelsSet, ref, plan) {
		if current, err = labels.Read(ctx, client, ref); err != nil {
			return labels.Plan{}, err
		}
		plan = labels.Decide(&b.labelsSet, ref, labels.Of(cfg.Labels), current, *l)
	}
	l.Labels = plan.Owned
	return plan, labels.PutOn(ctx, client, &b.labelsSet, ref, plan)
}
