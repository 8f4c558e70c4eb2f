package handlers

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/checks"
	"github.com/clarify-app/clarify/ledger"
)

// The run's call to package checks (checkPullRequests), and what the checks read of an
// issue (checkIssues).

// syncChecks brings the checks of the pull requests linking an issue in line with its
// ledger, when the run changed its open blocking clarifications or an earlier run's update
// of them is owed. A deferred write is an error here (ghtransport.ErrDeferred), so that it
// is owed too.
func (run *issueRun) syncChecks(ctx context.Context, before, after clarify.Ledger, owed bool) error {
	blocking := checks.BlockingOpen(after)
	run.blocked.put(run.ref.String(), blocking)
	if !run.mode.writesChecks() || !owed && !checks.Changed(before, after) {
		return nil
	}
	return run.checks.Sync(ctx, run.client, run.ref, blocking)
}

// blockingNow reads an issue's open blocking clarifications from its ledger. An issue
// that is closed, gone, or carries none of the app's labels (and this process knows of
// nothing open in it) has none, for the price of one read; known is false when its
// ledger cannot be trusted (it is being rebuilt), so its checks are left as they are.
func (c checkIssues) blockingNow(ctx context.Context, client *github.Client, ref clarify.IssueRef) (blocking []clarify.Clarification, known bool, err error) {
	is, _, err := client.Issues.Get(ctx, ref.Owner, ref.Repo, ref.Number)
	switch {
	case ledger.Gone(err):
		return nil, true, nil
	case err != nil:
		return nil, false, fmt.Errorf("read %s: %w", ref.String(), err)
	case is.GetState() == "closed":
		return nil, true, nil
	case !c.b.hasOurLabel(ref.Owner, ref.Repo, is.Labels) && !c.b.active.has(ref.String()):
		return nil, true, nil
	}
	snap := c.b.newRun(client, ref, trigger{})
	if err := snap.load(ctx, c.b.revs.get(ref.String()), false); err != nil {
		return nil, false, err
	}
	if snap.damaged {
		zerolog.Ctx(ctx).Warn().Str("issue", ref.String()).Msg("Ledger being rebuilt; the check of a pull request linking it waits for its next run")
		return nil, false, nil
	}
	return checks.BlockingOpen(snap.ledger), true, nil
}

// checkIssues answers the checks' questions about an issue (checks.IssueView).
type checkIssues struct{ b *Base }

// Blocking is blockingNow, answered from the caches when this process read or changed the
// issue less than checks.OutsiderTrust ago.
func (c checkIssues) Blocking(ctx context.Context, client *github.Client, ref clarify.IssueRef) ([]clarify.Clarification, bool, error) {
	b := c.b
	if blocking, ok := b.blocked.get(ref.String()); ok {
		return blocking, true, nil
	}
	blocking, known, err := c.blockingNow(ctx, client, ref)
	if err == nil && known {
		b.blocked.put(ref.String(), blocking)
	}
	return blocking, known, err
}

// Holds reports whether a pull request's own conversation may hold clarifications: it
// carries one of the app's labels, or this process knows one open in it.
func (c checkIssues) Holds(owner, repo string, pr *github.PullRequest) bool {
	self := clarify.IssueRef{Owner: owner, Repo: repo, Number: pr.GetNumber()}
	return c.b.hasOurLabel(owner, repo, pr.Labels) || c.b.active.has(self.String())
}

// checkPullRequests sets the checks of linked pull requests, before the save, best
// effort: a pull request's check must never hold up the issue's ledger. An update that
// fails or is deferred is owed: the issue is made due (indexSaved), and its next run
// brings the checks in line even though its blocking clarifications did not change, which
// a settled issue's never do again.
func (run *issueRun) checkPullRequests(ctx context.Context) {
	before, after := run.ledger, run.folded.ledger
	_, owed := run.checksOwed.get(run.ref.String())
	err := run.syncChecks(ctx, before, after, owed)
	if err == nil {
		run.checksOwed.forget(run.ref.String())
		return
	}
	run.checksOwed.put(run.ref.String(), true)
	zerolog.Ctx(ctx).Warn().Err(err).Msg("Checks of the pull requests linking the issue not updated; the next sweep tries again")
}
