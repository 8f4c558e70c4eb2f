package asker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// A read costs one request whatever the issue's size: the client finds the issue's status
// comment once (find: the first page, then the comments updated lately, then the pages up
// to it), keeps its id, and then reads that
// comment alone, conditionally: while the ledger does not change, GitHub answers 304, which
// the rate limit does not count, and reactions and other people's comments, which change
// the issue's pages, change nothing it reads. The archive comments are read, by id too,
// only when the status comment's own clarifications are not enough.

// keptStatus is what a Client keeps of an issue's status comment between reads. Its mutex
// makes one read of the issue at a time, so that reads at once find the comment once and
// hold one answer each.
type keptStatus struct {
	mu sync.Mutex
	// id is the status comment (0: not found yet); rev the newest revision read from it,
	// below which a body is one put back from its edit history.
	id, rev int64
	// none says a find listed every comment and found no status comment: one that
	// appears later is found among the comments since (recent).
	none bool
	// page is where a find out of time stopped (0: none did), for the next to go on from.
	page int
}

// snapshot is one read of an issue: the app's ledger (ok false: no status comment yet),
// and the reader the issue's repository was read with (readerOf).
type snapshot struct {
	ledger clarify.Ledger
	ok     bool
	reader ledger.Reader
}

// errRefind says the kept status comment is gone or no longer verifies: find it again.
var errRefind = errors.New("find the status comment again")

// errNotYet says a read ran out of its time (readOpts.until) while finding the status
// comment; the next read goes on from where it stopped.
var errNotYet = errors.New("the status comment is not found yet")

// kept is the client's memory of the issue's status comment.
func (c *Client) kept(issue clarify.IssueRef) *keptStatus {
	v, _ := c.statuses.LoadOrStore(issue, &keptStatus{})
	return v.(*keptStatus)
}

// readOpts say what a read needs. enough says whether the status comment's own
// clarifications will do (nil: never), or the archive comments it lists are read and
// merged in. recent, when listed, are the issue's comments since a time before the last
// find: once a find found no status comment, one that appears is found among them. until,
// when set, is when a find must stop (errNotYet).
type readOpts struct {
	enough func(clarify.Ledger) bool
	recent []*github.IssueComment
	listed bool
	until  time.Time
}

// read reads the app's ledger of the issue: the kept status comment by its id, else found
// among recent comments, else by listing.
func (c *Client) read(ctx context.Context, issue clarify.IssueRef, o readOpts) (snapshot, error) {
	r, err := c.readerOf(ctx, issue.Owner, issue.Repo)
	if err != nil {
		return snapshot{}, err
	}
	snap, err := c.readWith(ctx, r, issue, o)
	snap.reader = r
	return snap, err
}

// readWith is read with r, the reader of the issue's repository.
func (c *Client) readWith(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, o readOpts) (snapshot, error) {
	k := c.kept(issue)
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case k.id != 0:
		snap, err := c.readKept(ctx, r, issue, k, o)
		if !errors.Is(err, errRefind) {
			return snap, err
		}
	case k.none && o.listed:
		if st, _, _ := r.FindStatus(issue, o.recent); st != nil {
			return c.readFound(ctx, r, issue, k, st, o.enough)
		}
		return snapshot{}, nil
	}
	return c.find(ctx, r, issue, k, o)
}

// readKept reads the kept status comment by its id, or takes it from the comments just
// listed since (o.recent) when it is among them; errRefind when it is gone, no longer the
// app's status comment, or holds an older revision than it did.
func (c *Client) readKept(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, k *keptStatus, o readOpts) (snapshot, error) {
	cm := listed(o, k.id)
	if cm == nil {
		var err error
		cm, _, err = c.gh.Issues.GetComment(ctx, issue.Owner, issue.Repo, k.id)
		switch {
		case ghtransport.IsStatus(err, http.StatusNotFound):
			return snapshot{}, errRefind
		case err != nil:
			return snapshot{}, fmt.Errorf("read the status comment %d of %s: %w", k.id, issue, err)
		}
	}
	l, err := r.ReadStatus(issue, cm)
	if err != nil || l.Rev < k.rev {
		return snapshot{}, errRefind
	}
	if err := c.archives(ctx, r, issue, &l, o.enough); err != nil {
		var gone *archiveError
		if errors.As(err, &gone) {
			return snapshot{}, errRefind
		}
		return snapshot{}, err
	}
	k.rev = l.Rev
	return snapshot{ledger: l, ok: true}, nil
}

// listed is the comment of that id among the comments o listed since, or nil.
func listed(o readOpts, id int64) *github.IssueComment {
	for _, cm := range o.recent {
		if o.listed && cm.GetID() == id {
			return cm
		}
	}
	return nil
}

// find lists the issue's comments up to its status comment (its pages kept nowhere: they
// are read once) and reads it. Past o.until it stops (errNotYet), and the next find goes
// on from that page: on a long issue, finding it may take longer than a wait may last.
// When the first page does not hold it, the comments updated lately are looked at first
// (recentStatus): the status comment of a clarification active lately is among them.
func (c *Client) find(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, k *keptStatus, o readOpts) (snapshot, error) {
	ctx = ghtransport.WithoutStore(ctx)
	if k.page == 0 {
		st, next, err := r.LocateStatus(ctx, c.gh, issue, 0, func() bool { return false })
		if st == nil && err == nil && next != 0 {
			if st, err = c.recentStatus(ctx, r, issue); st == nil && err == nil {
				k.page = next
				return c.locate(ctx, r, issue, k, o)
			}
		}
		return c.located(ctx, r, issue, k, o, st, next, err)
	}
	return c.locate(ctx, r, issue, k, o)
}

// locate lists the issue's comments from page k.page up to its status comment, while a
// page would end before o.until.
func (c *Client) locate(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, k *keptStatus, o readOpts) (snapshot, error) {
	// Another page only if it would end in time, taking as long as the last.
	last := c.now()
	more := func() bool {
		now := c.now()
		page := now.Sub(last)
		last = now
		return o.until.IsZero() || !now.Add(page).After(o.until)
	}
	st, next, err := r.LocateStatus(ctx, c.gh, issue, k.page, more)
	return c.located(ctx, r, issue, k, o, st, next, err)
}

// located reads what LocateStatus found, or keeps where it stopped.
func (c *Client) located(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, k *keptStatus, o readOpts,
	st *github.IssueComment, next int, err error) (snapshot, error) {
	switch {
	case errors.Is(err, ledger.ErrNoStatus):
		k.id, k.rev, k.none, k.page = 0, 0, true, 0
		return snapshot{}, nil
	case err != nil:
		return snapshot{}, err
	case st == nil:
		k.page = next
		return snapshot{}, errNotYet
	}
	k.page = 0
	return c.readFound(ctx, r, issue, k, st, o.enough)
}

// recentWindows are how far back recentStatus looks, shortest first: each one page.
var recentWindows = []time.Duration{10 * time.Minute, 6 * time.Hour, 7 * 24 * time.Hour}

// recentStatus looks for the status comment among the comments updated in each window
// in turn, a page each, and stops at a window that holds more than a page (a longer one
// would hold no fewer): nil when none found it.
func (c *Client) recentStatus(ctx context.Context, r ledger.Reader, issue clarify.IssueRef) (*github.IssueComment, error) {
	now := c.now()
	for _, w := range recentWindows {
		st, complete, err := r.LocateRecentStatus(ctx, c.gh, issue, now.Add(-w))
		if st != nil || err != nil || !complete {
			return st, err
		}
	}
	return nil, nil
}

// readFound reads the status comment st, just found, and keeps it.
func (c *Client) readFound(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, k *keptStatus, st *github.IssueComment, enough func(clarify.Ledger) bool) (snapshot, error) {
	l, err := r.ReadStatus(issue, st)
	switch {
	case err != nil:
		return snapshot{}, err
	case st.GetID() == k.id && l.Rev < k.rev:
		return snapshot{}, fmt.Errorf("status comment %d of %s holds revision %d, older than the %d it held: put back from its edit history, "+
			"which the app rebuilds", st.GetID(), issue, l.Rev, k.rev)
	}
	if err := c.archives(ctx, r, issue, &l, enough); err != nil {
		return snapshot{}, err
	}
	if st.GetID() != k.id {
		k.id, k.none = st.GetID(), false
		k.rev = 0
	}
	k.rev = max(k.rev, l.Rev)
	return snapshot{ledger: l, ok: true}, nil
}

// archiveError is an archive comment that is gone or does not verify.
type archiveError struct{ err error }

func (e *archiveError) Error() string { return e.err.Error() }
func (e *archiveError) Unwrap() error { return e.err }

// archives reads the archive comments l lists, each by its id and conditionally, and
// merges them in, unless enough says l will do.
func (c *Client) archives(ctx context.Context, r ledger.Reader, issue clarify.IssueRef, l *clarify.Ledger, enough func(clarify.Ledger) bool) error {
	if len(l.Archives) == 0 || (enough != nil && enough(*l)) {
		return nil
	}
	var got []*github.IssueComment
	for _, id := range l.Archives {
		cm, _, err := c.gh.Issues.GetComment(ctx, issue.Owner, issue.Repo, id)
		switch {
		case ghtransport.IsStatus(err, http.StatusNotFound):
			continue // gone: MergeArchives says so
		case err != nil:
			return fmt.Errorf("read the archive comment %d of %s: %w", id, issue, err)
		}
		got = append(got, cm)
	}
	if _, err := r.MergeArchives(issue, l, got); err != nil {
		return &archiveError{err}
	}
	return nil
}

// since lists the issue's comments updated since t, where an ask looks for the app's
// reply to it: a few comments, whatever the issue's length, and conditional like every
// read, so a poll that finds nothing new costs a 304.
func (c *Client) since(ctx context.Context, issue clarify.IssueRef, t time.Time) ([]*github.IssueComment, error) {
	return ledger.ListCommentsSince(ctx, c.gh, issue, t, 0)
}

// look is one read of a wait for Clarify to take what was sent (an ask, a settle): the
// comments since it was sent, where the app's reply to it is, and the ledger. The first
// read after a comment finds the status comment instead (a dispatch's did, in mark); the
// reads after it find a new one among the comments since. While no status comment is
// believed, blocks among them that claim to be Clarify's but cannot be verified end the
// wait at once (unverifiable's cannot-verify *Error): it would wait in vain.
func (c *Client) look(ctx context.Context, issue clarify.IssueRef, s sent, first bool, enough func(clarify.Ledger) bool) (
	[]*github.IssueComment, snapshot, error) {
	listed := !first || s.comment == 0
	var recent []*github.IssueComment
	if listed {
		var err error
		if recent, err = c.since(ctx, issue, s.since); err != nil {
			return nil, snapshot{}, err
		}
	}
	snap, err := c.read(ctx, issue, readOpts{enough: enough, recent: recent, listed: listed})
	if err == nil && !snap.ok {
		if e := unverifiable(snap.reader, issue, recent); e != nil {
			return recent, snap, e
		}
	}
	return recent, snap, err
}
