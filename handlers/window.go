package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
)

// bot action's event runs are fresh processes: none remembers where an issue's status
// comment is, and listing every page of a long issue to find it would spend a request per
// 100 comments on every comment, an outsider's too. So in an issue of more than a page:
//   - the run lists the comments updated in the last statusWindow; a status comment saved
//     within statusTrusted is among them, and so is every comment made since the run that
//     saved it read the issue, which is all the fold needs (loadWindow);
//   - a run that finds the status comment older than statusFresh, or its ledger one the
//     window cannot hold to (windowHolds), saves the ledger's cursor forward when it applied
//     a comment (snapshot.refresh), so that the next run finds it;
//   - otherwise, and whenever the window's ledger needs the whole issue to be believed,
//     the run reads every page, as every run in a short issue does.
const (
	statusWindow = 15 * time.Minute
	// statusTrusted leaves the run that saved the status comment readMargin between its
	// read of the issue and its save: comments made in between are still in the window.
	statusTrusted = 10 * time.Minute
	readMargin    = statusWindow - statusTrusted
	statusFresh   = 5 * time.Minute
)

// windowHolds reports whether the window may hold a run to ledger l: l says when it was
// saved and when the run that saved it read the issue, at most readMargin apart. Else the
// whole issue is read:
//   - a ledger without a save time (written before Clarify stamped it, or by `bot ledger
//     import`) is one no rollback check can hold to the comment's update time (ledger.Trust),
//     so a body put back from the comment's edit history would pass, and the window would
//     miss what that body never applied;
//   - a run slowed past the margin (retries, the pacer) read the issue before the window of
//     a run that finds its save within statusTrusted, and comments made since that read
//     could lie before the window.
func windowHolds(l clarify.Ledger) bool {
	return !l.Saved.IsZero() && !l.Read.IsZero() && l.Saved.Sub(l.Read) <= readMargin
}

// longIssue reports whether trig is bot action's event run (m) in an issue of more
// comments than a page holds, as the event's payload counts them.
func longIssue(m Mode, trig trigger) bool {
	return m.inIssueGroup() && trig.Issue != nil && !trig.Listed && trig.Issue.GetComments() > ledger.CommentsPage
}

// loadWindow reads the comments updated in the last statusWindow and, when the app's status
// comment is among them, was saved within statusTrusted and holds a ledger the window holds
// to (windowHolds), the snapshot they make; false
// when the whole issue must be read (Read's trust rules hold the ledger against the window's
// comments, and one they distrust is rebuilt from every comment).
func (run *issueRun) loadWindow(ctx context.Context, floor int64) (bool, error) {
	now := run.Now()
	rc := &recentComments{ctx: ctx, client: run.client, ref: run.ref}
	if err := rc.list(now.Add(-statusWindow)); err != nil {
		return false, err
	}
	ledger.SortByID(rc.comments)
	status, _, _ := run.reader().FindStatus(run.ref, rc.comments)
	if status == nil || status.GetUpdatedAt().Time.Before(now.Add(-statusTrusted)) {
		return false, nil
	}
	ok, err := run.partialSnapshot(rc, status, floor)
	if !ok || err != nil || !windowHolds(run.ledger) {
		return false, err
	}
	if no, _ := run.reader().Trust(run.ref, &run.ledger, status, run.comments, floor); no != nil {
		return false, nil
	}
	return true, nil
}

// staleStatus reports whether the status comment was saved longer than statusFresh before
// now: the next run of a long issue would not find it in its window.
func staleStatus(status *github.IssueComment, now time.Time) bool {
	return status != nil && status.GetUpdatedAt().Time.Before(now.Add(-statusFresh))
}
