package ledger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// LogKeyComment is the log field naming the comment a line is about.
const LogKeyComment = "comment_id"

// ErrNoStatus says an issue has no status comment by the app's account: nothing was asked
// there, or the app's login is not the one given.
var ErrNoStatus = errors.New("no status comment by the app")

// Reader reads an issue's ledger from its comments, the one way the handlers, bot
// ledger and bot stats all read it: the first status comment written by the app's own
// account (a look-alike by anyone else is never read), verified under the issue's keys,
// with the clarifications of the archive comments it lists merged back in.
type Reader struct {
	// Bot is the app's login, "<slug>[bot]": only its comments hold the ledger.
	Bot string
	// Keys verify the issue's blocks (render.Keyring decides which keys an issue trusts).
	Keys render.Keyring
	// Unchecked reads the blocks without verifying them: bot ledger given no key, for a
	// person to look at. The app never does: a ledger it cannot verify is rebuilt.
	Unchecked bool
	// Public, when given, are the keys a comment of Bot must be signed under to be the
	// app's (ledger/public.go): how an asker, who holds no ledger key, believes a
	// workflow's records. A signed comment's blocks are then read as they are (Unchecked).
	Public render.VerifyKeys
}

// Found is what Reader.Read found of an issue's ledger: the ledger, and the comment it was in.
type Found struct {
	Ledger clarify.Ledger
	// Status is the status comment the ledger was read from.
	Status *github.IssueComment
	// Lookalikes counts the comments by others that look like a status comment.
	Lookalikes int
	// CursorFrom is the ledger's cursor as saved when it lay past the issue's newest
	// comment and was brought back to it, as the app's runs do; 0 otherwise.
	CursorFrom int64
}

// ListComments reads every comment of an issue, oldest first, page by page.
func ListComments(ctx context.Context, client *github.Client, owner, repo string, number int) ([]*github.IssueComment, error) {
	return ListCommentsSince(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo, Number: number}, time.Time{}, 0)
}

// CommentsPage is how many comments ListCommentsSince asks for a page: GitHub's most. A
// shorter page is the last.
const CommentsPage = 100

// ListCommentsSince is the one way an issue's comments are listed: those updated since a time
// (zero: all of them), CommentsPage a page, at most pages pages (0: every page), oldest first.
func ListCommentsSince(ctx context.Context, client *github.Client, ref clarify.IssueRef, since time.Time, pages int) ([]*github.IssueComment, error) {
	return ListCommentsApps(ctx, client, ref, since, pages, nil)
}

// ListCommentsApps is ListCommentsSince noting in apps the App each comment was made
// through (apps.go).
func ListCommentsApps(ctx context.Context, client *github.Client, ref clarify.IssueRef, since time.Time, pages int, apps CommentApps) ([]*github.IssueComment, error) {
	var comments []*github.IssueComment
	read := 0
	err := eachCommentPage(ctx, client, ref, since, 0, apps, func(page []*github.IssueComment, _ int) bool {
		comments = append(comments, page...)
		read++
		return pages <= 0 || read < pages
	})
	if err != nil {
		return nil, err
	}
	SortByID(comments)
	return comments, nil
}

// eachCommentPage lists the issue's comments as ListCommentsSince does, from page from (0:
// the first), handing each page and the number of the next (0: none) to each until it
// returns false: for a reader that keeps little of them.
func eachCommentPage(ctx context.Context, client *github.Client, ref clarify.IssueRef, since time.Time, from int, apps CommentApps,
	each func(page []*github.IssueComment, next int) bool) error {
	err := ghtransport.EachPage(from, func(page int) ([]*github.IssueComment, *github.Response, error) {
		return listPage(ctx, client, ref, since, page, apps)
	}, each)
	switch {
	case err != nil && since.IsZero():
		return fmt.Errorf("list the comments of %s: %w", ref.String(), err)
	case err != nil:
		return fmt.Errorf("list comments of %s since %s: %w", ref.String(), since.Format(time.RFC3339), err)
	}
	return nil
}

// SortByID puts comments in the order they were written: GitHub's ids grow with time.
func SortByID(comments []*github.IssueComment) {
	slices.SortStableFunc(comments, func(a, b *github.IssueComment) int { return cmp.Compare(a.GetID(), b.GetID()) })
}

// Read lists the issue's comments and reads its whole ledger. Without a status comment by
// the app the error is ErrNoStatus; a status comment or an archive that does not verify,
// an archive that is gone, or a ledger the app's runs would not trust (trust, knowing no
// newer revision) is an error that names the comment.
func (r Reader) Read(ctx context.Context, client *github.Client, owner, repo string, number int) (Found, error) {
	comments, err := ListComments(ctx, client, owner, repo, number)
	if err != nil {
		return Found{}, err
	}
	return r.ReadComments(owner, repo, number, comments)
}

// ReadComments is Read of comments already listed (ListComments), for a reader that
// looks at the issue's other comments too (the asker's client, which finds the app's
// refusal of its ask there).
func (r Reader) ReadComments(owner, repo string, number int, comments []*github.IssueComment) (Found, error) {
	var (
		got Found
		err error
	)
	ref := clarify.IssueRef{Owner: owner, Repo: repo, Number: number}
	comments = r.believe(ref, comments)
	got.Status, _, got.Lookalikes = r.FindStatus(ref, comments)
	if got.Status == nil {
		return got, ErrNoStatus
	}
	if got.Ledger, err = r.statusLedger(ref, got.Status); err != nil {
		return got, err
	}
	cursor := got.Ledger.Cursor
	if no, moved := r.Trust(ref, &got.Ledger, got.Status, comments, 0); no != nil {
		return got, fmt.Errorf("status comment %d of %s verifies but is not trusted: %s; the app rebuilds the ledger from the issue's comments instead", got.Status.GetID(), ref.String(), no.Why)
	} else if moved {
		got.CursorFrom = cursor
	}
	_, err = r.MergeArchives(ref, &got.Ledger, comments)
	return got, err
}

// statusLedger is the ledger in the issue's status comment: verified, and the issue's own.
func (r Reader) statusLedger(ref clarify.IssueRef, status *github.IssueComment) (clarify.Ledger, error) {
	l, err := r.DecodeStatus(ref, status.GetBody())
	switch {
	case err != nil:
		return l, fmt.Errorf("status comment %d of %s: %w", status.GetID(), ref.String(), err)
	case l.Issue != ref.Number:
		return l, fmt.Errorf("status comment %d of %s holds the ledger of issue #%d", status.GetID(), ref.String(), l.Issue)
	}
	return l, nil
}

// Own reports whether a comment was written by the app's account.
func (r Reader) Own(c *github.IssueComment) bool { return IsLogin(c.GetUser(), r.Bot) }

// IsLogin reports whether u is the account of that login; GitHub's logins ignore case.
func IsLogin(u *github.User, login string) bool {
	return u != nil && strings.EqualFold(u.GetLogin(), login)
}

// FindStatus returns the app's status comment among comments (oldest first): the first
// that isStatus takes for the app's. extra are the app's later ones, which are never read
// (two replicas may both have created one); lookalikes counts those by anyone else.
func (r Reader) FindStatus(ref clarify.IssueRef, comments []*github.IssueComment) (status *github.IssueComment, extra []*github.IssueComment, lookalikes int) {
	for _, c := range comments {
		switch {
		case !render.IsStatus(c.GetBody()):
		case !r.IsStatus(ref, c.GetUser(), c.GetBody()):
			lookalikes++
		case status == nil:
			status = c
		default:
			extra = append(extra, c)
		}
	}
	return status, extra, lookalikes
}

// DecodeStatus verifies and decodes the ledger in the issue's status comment body.
func (r Reader) DecodeStatus(ref clarify.IssueRef, body string) (clarify.Ledger, error) {
	if r.Unchecked {
		return render.DecodeLedgerUnverified(body)
	}
	return r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).DecodeLedger(body)
}

// decodeArchive is decodeStatus for an archive comment's body.
func (r Reader) decodeArchive(ref clarify.IssueRef, body string) (clarify.Ledger, error) {
	if r.Unchecked {
		return render.DecodeArchiveUnverified(body)
	}
	return r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).DecodeArchive(body)
}

// MergeArchives merges into l the clarifications of the archive comments it lists, found
// among comments, in the order they were asked, and returns their ids. An archive that is
// gone, not the app's, or does not verify is an error: the app then rebuilds the ledger.
func (r Reader) MergeArchives(ref clarify.IssueRef, l *clarify.Ledger, comments []*github.IssueComment) (map[string]bool, error) {
	archived := map[string]bool{}
	var merged []clarify.Clarification
	for _, id := range l.Archives {
		i := slices.IndexFunc(comments, func(c *github.IssueComment) bool { return c.GetID() == id })
		if i < 0 || !r.Own(comments[i]) || !r.believed(ref, comments[i]) {
			return nil, fmt.Errorf("archive comment %d of %s, listed in its ledger, is gone", id, ref.String())
		}
		a, err := r.decodeArchive(ref, comments[i].GetBody())
		if err != nil {
			return nil, fmt.Errorf("archive comment %d of %s: %w", id, ref.String(), err)
		}
		for _, c := range a.Clarifications {
			archived[c.ID] = true
		}
		merged = append(merged, a.Clarifications...)
	}
	if len(merged) > 0 {
		l.Clarifications = append(merged, l.Clarifications...)
		SortBySeq(l.Clarifications)
	}
	return archived, nil
}

// ListUpdated lists a repository's issues and pull requests updated since a time, open
// or closed.
func ListUpdated(ctx context.Context, client *github.Client, owner, repo string, since time.Time) ([]*github.Issue, error) {
	issues, err := ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all", Since: since,
			ListOptions: github.ListOptions{Page: page, PerPage: 100}})
	})
	if err != nil {
		return nil, fmt.Errorf("list the issues of %s/%s: %w", owner, repo, err)
	}
	return issues, nil
}

// ReadIssues reads the ledgers of a repository's issues (bot stats): those without a
// status comment by the app are skipped, and one whose ledger cannot be read is told to
// failed and left out, so that it does not hide the rest.
func (r Reader) ReadIssues(ctx context.Context, client *github.Client, owner, repo string, issues []*github.Issue,
	failed func(number int, err error)) []clarify.Ledger {
	var ledgers []clarify.Ledger
	for _, is := range issues {
		got, err := r.Read(ctx, client, owner, repo, is.GetNumber())
		switch {
		case errors.Is(err, ErrNoStatus):
		case err != nil:
			failed(is.GetNumber(), err)
		default:
			ledgers = append(ledgers, got.Ledger)
		}
	}
	return ledgers
}

// ReadBody reads the ledger in a status comment's body saved to a file (bot ledger FILE):
// under the issue's keys when the issue is known (number > 0), else under the ring's plain
// keys, which signed ledgers before keys were bound to their issue.
func (r Reader) ReadBody(body, owner, repo string, number int) (clarify.Ledger, error) {
	switch {
	case r.Unchecked:
		l, err := render.DecodeLedgerUnverified(body)
		if err == nil && number > 0 && l.Issue != number {
			err = fmt.Errorf("the ledger is issue #%d's, not #%d's", l.Issue, number)
		}
		return l, err
	case number <= 0:
		l, err := r.Keys.DecodeUnbound(body)
		if err != nil {
			err = fmt.Errorf("%w (give -issue OWNER/REPO#N: each issue's ledger has a key of its own)", err)
		}
		return l, err
	}
	return r.DecodeStatus(clarify.IssueRef{Owner: owner, Repo: repo, Number: number}, body)
}

// SortBySeq orders clarifications by their sequence number, the order they were asked in.
func SortBySeq(cs []clarify.Clarification) {
	slices.SortStableFunc(cs, func(a, b clarify.Clarification) int { return clarify.CompareIDs(a.ID, b.ID) })
}
