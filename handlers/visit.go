package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/appconfig"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/checks"
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

// MayHaveStanding reports whether a listed comment's author may be someone whose command
// the fold takes, as far as the listing tells with no request: an account that may have
// write access (its author_association), a bot (an agent; a bot comments only where its app
// is installed), or a login the repository's roles list. Anyone else is a drive-by in an
// issue where nothing of theirs is open (the issues with something open carry the active
// label and are run anyway), so a scheduled run does not read the issue for their command.
func MayHaveStanding(c *github.IssueComment, p clarify.Policy) bool {
	u := c.GetUser()
	return checks.MayWrite(c.GetAuthorAssociation()) || u.GetType() == "Bot" || p.RoleOf(u.GetLogin()) != ""
}

// NewRepoConfigLoader is a ConfigLoader that reads the repository's own file only, not the
// organisation's default in its .github repository: a workflow's GITHUB_TOKEN reaches no
// other repository, so that look-up could only cost a request and answer 404.
func NewRepoConfigLoader(ttl time.Duration, now func() time.Time) *ConfigLoader {
	l := newConfigLoader(ttl, now, appconfig.WithOwnerDefault("", nil))
	l.oneRepo = true
	return l
}

// FlushDashboards writes the dashboards the runs noted: the App's sweep within the minute,
// a workflow run at its end (its process ends with it).
func (b *Base) FlushDashboards(ctx context.Context) { b.appIssues.FlushDashboards(ctx) }
