package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// What the sweeps (handlers/sweep) need of the handlers beside their Handle methods: an
// issue run as a sweep visits it, with an installation's client or a workflow's.

// RunIssue runs one issue as a sweep visits it: any comment past the ledger's cursor, the
// deadlines passed, and the close of a closed issue whose close no run applied. It
// returns when the issue is next due (zero: never, until something happens in it).
func (b *Base) RunIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef, is *github.Issue) (time.Time, error) {
	saved, err := b.run(ctx, client, ref, sweepTrigger(is))
	if err != nil {
		return time.Time{}, err
	}
	return b.nextDue(ref, saved), nil
}

// BreakDeadlock runs an open issue escalating clarification id, for reason, to break a
// deadlock; a closed one is run as RunIssue runs it.
func (b *Base) BreakDeadlock(ctx context.Context, client *github.Client, ref clarify.IssueRef, is *github.Issue, id, reason string) error {
	trig := sweepTrigger(is)
	if trig.Kind == triggerTick {
		trig = trigger{Kind: triggerBreak, Issue: is, Break: deadlockBreak{ID: id, Reason: reason}}
	}
	_, err := b.run(ctx, client, ref, trig)
	return err
}

// sweepTrigger is how a sweep wakes an issue it has read: time, or the close of an issue
// that still carries the active label because its close was never delivered (or delivered
// to a process that was down).
func sweepTrigger(is *github.Issue) trigger {
	if is.GetState() == "closed" {
		return trigger{Kind: triggerIssue, Event: clarify.EventClosed, At: is.GetClosedAt().Time, Issue: is, IssueClosed: true}
	}
	return trigger{Kind: triggerTick, Issue: is, Listed: true}
}

// FlushDashboards writes the dashboards the runs noted: the App's sweep within the minute,
// a workflow run at its end (its process ends with it).
func (b *Base) FlushDashboards(ctx context.Context) { b.appIssues.FlushDashboards(ctx) }
