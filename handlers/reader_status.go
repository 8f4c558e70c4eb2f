package handlers

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// The asker's client reads an issue's ledger without listing its comments each time: it
// finds the status comment once (FindStatus), then reads that comment alone by its id
// (ReadStatus) and the archive comments only when it needs them (MergeArchives). The rules
// are Read's: which comment is the status, how it verifies, how archives merge. What Read
// does beyond them needs every comment of the issue, and is left out: the trust check
// (ledger_trust.go) of a ledger that verifies but is older than the issue shows, which a
// reader of one comment cannot make; the app rebuilds such a ledger on the edit's event.

// FindStatus lists the issue's comments oldest first, a page at a time, from page from (0:
// the first), up to the page that holds its status comment: the first that Read takes for
// the app's (findStatus), so no later page can change which it is. Only that comment is
// kept, so that finding it in an issue of megabytes holds one page. more is asked before
// each page after the first: when it says no, FindStatus stops with no comment and the
// page to go on from (next), so that a reader out of time can go on later. ErrNoStatus
// when the issue has none.
func (r LedgerReader) FindStatus(ctx context.Context, client *github.Client, issue clarify.IssueRef, from int, more func() bool) (
	status *github.IssueComment, next int, err error) {
	ref := issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}
	err = eachCommentPage(ctx, client, ref, time.Time{}, from, func(page []*github.IssueComment, after int) bool {
		status, next = r.StatusIn(issue, page), after
		return status == nil && (after == 0 || more())
	})
	switch {
	case err != nil:
		return nil, 0, err
	case status != nil:
		return status, 0, nil
	case next == 0:
		return nil, 0, ErrNoStatus
	}
	return nil, next, nil
}

// StatusIn is the status comment among comments (in any order) by Read's rule (the first
// that findStatus takes), nil when none is: the first of the issue when comments hold
// every comment from the one that was, or all comments since a find found none.
func (r LedgerReader) StatusIn(issue clarify.IssueRef, comments []*github.IssueComment) *github.IssueComment {
	sortByID(comments)
	status, _, _ := r.findStatus(issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}, comments)
	return status
}

// ReadStatus reads the ledger in status, a comment read by itself: it must still be the
// app's status comment of the issue (isStatus), verify, and be the issue's own, or the
// error says why (the caller finds the status comment again). Its archives are not merged.
func (r LedgerReader) ReadStatus(issue clarify.IssueRef, status *github.IssueComment) (clarify.Ledger, error) {
	ref := issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}
	if !r.isStatus(ref, status.GetUser(), status.GetBody()) {
		return clarify.Ledger{}, fmt.Errorf("comment %d of %s is not the app's status comment", status.GetID(), ref.key())
	}
	return r.statusLedger(ref, status)
}

// MergeArchives merges into l the clarifications of the archive comments it lists, read
// by their ids (archives, in any order), as Read does: one missing, not the app's, or not
// verifying is an error.
func (r LedgerReader) MergeArchives(issue clarify.IssueRef, l *clarify.Ledger, archives []*github.IssueComment) error {
	_, err := r.mergeArchives(issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}, l, archives)
	return err
}
