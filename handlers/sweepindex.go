package handlers

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// SweepIndex is what bot action's scheduled runs know of a repository's issues from one
// run to the next, when nothing else survives a workflow's process: for each issue a run
// ran, the updated_at it listed just before and the next deadline it saved. An issue
// listed again with the same updated_at, its deadline still ahead, has nothing new, so
// it is not read: with 100 open clarifications an idle scheduled run costs a handful of
// requests rather than one or more per issue. The index lives in one signed comment of the
// app's decisions issue; only scheduled runs write it, and they share one concurrency
// group, so two never write it at once (App mode keeps its deadline index instead).
type SweepIndex struct {
	owner, repo string
	issue       int                  // the decisions issue; 0 when there is none yet
	comment     *github.IssueComment // the comment holding the index; nil when none yet
	book        ledger.MemoryBook    // the decisions issue as read, for its index (decisions/read.go)
	loaded      map[int]render.Swept
	next        map[int]render.Swept
}

// LoadSweepIndex reads the repository's sweep index. One that is missing, or that does
// not verify (edited by hand, or signed before a key rotation), is empty: every issue is
// read, and the run writes it afresh.
func (b *Base) LoadSweepIndex(ctx context.Context, client *github.Client, owner, repo string) (*SweepIndex, error) {
	book, err := decisions.Read(ctx, memoryHost{b}, client, owner, repo)
	if err != nil {
		return nil, err
	}
	x := &SweepIndex{owner: owner, repo: repo, issue: book.Issue, comment: book.SweepIndex, book: book, next: map[int]render.Swept{}}
	if x.comment != nil {
		x.loaded, err = b.keys(clarify.IssueRef{Owner: owner, Repo: repo, Number: x.issue}).DecodeSweepIndex(x.comment.GetBody())
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, x.comment.GetID()).Msg("The sweep index does not verify; reading every issue")
		}
	}
	return x, nil
}

// Unchanged says whether the index knows issue as listed now, with nothing due before
// now; such an issue is carried into the next index unread.
func (x *SweepIndex) Unchanged(is *github.Issue, now time.Time) bool {
	e, ok := x.loaded[is.GetNumber()]
	if !ok || !e.Seen.Equal(is.GetUpdatedAt().Time) || (!e.Due.IsZero() && !e.Due.After(now)) {
		return false
	}
	x.next[is.GetNumber()] = e
	return true
}

// Overdue says whether the index knows issue number n with a deadline at or before now:
// an issue a scheduled run takes before those it merely cannot vouch for.
func (x *SweepIndex) Overdue(n int, now time.Time) bool {
	e, ok := x.loaded[n]
	return ok && !e.Due.IsZero() && !e.Due.After(now)
}

// RanAfter says whether a run of issue number n read it after at: the index holds the
// issue as listed with an updated_at later than at, so whatever was posted at at was there
// to be applied. Such an entry is carried into the next index, so that a command no run
// needs to apply again (one the fold ignored, which leaves no write of the app's behind) is
// read once, not by every run. updated_at counts whole seconds: one equal to at proves
// nothing.
func (x *SweepIndex) RanAfter(n int, at time.Time) bool {
	e, ok := x.loaded[n]
	if !ok || !e.Seen.After(at) {
		return false
	}
	if x.next == nil {
		x.next = map[int]render.Swept{}
	}
	x.next[n] = e
	return true
}

// Ran notes a run of issue, as listed, that saved its ledger with the next deadline due.
func (x *SweepIndex) Ran(is *github.Issue, due time.Time) {
	if x.next == nil {
		x.next = map[int]render.Swept{}
	}
	x.next[is.GetNumber()] = render.Swept{Seen: is.GetUpdatedAt().Time, Due: due}
}

// SaveSweepIndex writes the index when it changed: into its comment, made the first time
// in the app's decisions issue (which is made too when the repository has none yet). An
// index that was never read (the zero SweepIndex) is not written: where its comment is
// would be unknown, and a second one made.
func (b *Base) SaveSweepIndex(ctx context.Context, client *github.Client, x *SweepIndex) error {
	if x.owner == "" || maps.EqualFunc(x.loaded, x.next, func(a, c render.Swept) bool { return a.Seen.Equal(c.Seen) && a.Due.Equal(c.Due) }) {
		return nil
	}
	if x.issue == 0 {
		n, err := decisions.CreateIssue(ctx, memoryHost{b}, client, clarify.IssueRef{Owner: x.owner, Repo: x.repo})
		if err != nil {
			return err
		}
		b.decisionIssues.put(x.owner+"/"+x.repo, n)
		x.issue, x.book = n, ledger.MemoryBook{Issue: n}
	}
	xref := clarify.IssueRef{Owner: x.owner, Repo: x.repo, Number: x.issue}
	body, err := render.EncodeSweepIndex(x.next, b.keys(xref).Signing())
	if err != nil {
		return err
	}
	body = b.signed(xref, body)
	made := x.comment == nil
	if made {
		x.comment, _, err = client.Issues.CreateComment(ctx, x.owner, x.repo, x.issue, &github.IssueComment{Body: &body})
	} else {
		_, _, err = client.Issues.EditComment(ctx, x.owner, x.repo, x.comment.GetID(), &github.IssueComment{Body: &body})
	}
	if err != nil {
		return fmt.Errorf("write the sweep index of %s/%s in #%d: %w", x.owner, x.repo, x.issue, err)
	}
	if !made && !x.book.Unindexed && !x.book.Unmarked {
		return nil
	}
	// The decisions issue's index names this comment, so a run finds it on the first page
	// or by its id whatever others post there; its parts are read again, since this run
	// may have written the decisions after it read the index.
	book, err := b.reader().ReadMemoryIn(ctx, client, x.owner, x.repo, x.issue, true)
	if err != nil {
		return err
	}
	book.Unmarked = x.book.Unmarked
	return decisions.WriteIndex(ctx, memoryHost{b}, client, clarify.IssueRef{Owner: x.owner, Repo: x.repo}, &book, x.comment, true)
}
