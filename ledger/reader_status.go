package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// The asker's client reads an issue's ledger without listing its comments each time: it
// finds the status comment once (LocateStatus), then reads that comment alone by its id
// (ReadStatus) and the archive comments only when it needs them (MergeArchives). The rules
// are Read's: which comment is the status, how it verifies, how archives merge. What Read
// does beyond them needs every comment of the issue, and is left out: the trust check
// (trust.go) of a ledger that verifies but is older than the issue shows, which a reader
// of one comment cannot make; the app rebuilds such a ledger on the edit's event.

// LocateStatus lists the issue's comments oldest first, a page at a time, from page from
// (0: the first), up to the page that holds its status comment: the first that Read takes
// for the app's (FindStatus), so no later page can change which it is. Only that comment
// is kept, so that finding it in an issue of megabytes holds one page. more is asked
// before each page after the first: when it says no, LocateStatus stops with no comment
// and the page to go on from (next), so that a reader out of time can go on later.
// ErrNoStatus when the issue has none.
func (r Reader) LocateStatus(ctx context.Context, client *github.Client, issue clarify.IssueRef, from int, more func() bool) (
	status *github.IssueComment, next int, err error) {
	err = eachCommentPage(ctx, client, issue, time.Time{}, from, nil, func(page []*github.IssueComment, after int) bool {
		SortByID(page)
		status, _, _ = r.FindStatus(issue, page)
		next = after
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

// ReadStatus reads the ledger in status, a comment read by itself: it must still be the
// app's status comment of the issue (IsStatus), verify, and be the issue's own, or the
// error says why (the caller finds the status comment again). Its archives are not merged.
func (r Reader) ReadStatus(issue clarify.IssueRef, status *github.IssueComment) (clarify.Ledger, error) {
	if !r.IsStatus(issue, status.GetUser(), status.GetBody()) {
		return clarify.Ledger{}, fmt.Errorf("comment %d of %s is not the app's status comment", status.GetID(), issue.String())
	}
	return r.statusLedger(issue, status)
}

// LocateRecentStatus looks for the issue's status comment among the first page of its
// comments updated since since. The app edits its status comment at every save, so a
// clarification active lately has it there, however far back the comment was made; a
// younger twin is deleted by the run that made it, so the app's one it finds is the one
// Read takes. complete says the page held every comment since: when it did not, a longer
// window would list no less, and the caller lists from the start instead.
func (r Reader) LocateRecentStatus(ctx context.Context, client *github.Client, issue clarify.IssueRef, since time.Time) (
	status *github.IssueComment, complete bool, err error) {
	err = eachCommentPage(ctx, client, issue, since, 0, nil, func(page []*github.IssueComment, after int) bool {
		SortByID(page)
		status, _, _ = r.FindStatus(issue, page)
		complete = after == 0
		return false
	})
	if err != nil {
		return nil, false, err
	}
	return status, complete, nil
}
