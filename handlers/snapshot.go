package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// firstRunWindow is how far back a run reaches when the issue has no ledger yet: far
// enough to take in comments whose deliveries arrive out of order or were lost around the
// first ask, not so far that installing the app replays an issue's old commands.
const firstRunWindow = 15 * time.Minute

// snapshot is what a run reads of an issue before it applies anything.
type snapshot struct {
	comments  []*github.IssueComment
	status    *github.IssueComment
	ledger    clarify.Ledger
	hasLedger bool
	// damaged is set when the ledger is rebuilt by folding the issue again from
	// rebuildFrom, because the status comment did not verify or was deleted.
	damaged     bool
	rebuildFrom time.Time
	// archived holds the ids of the clarifications that live in archive comments.
	archived map[string]bool
}

// posted reports whether one of the app's comments already carries the effect's marker.
func (s *snapshot) posted(b *Base, key string) bool {
	return slices.ContainsFunc(s.comments, func(c *github.IssueComment) bool {
		return b.isSelf(c.User) && render.HasMarker(c.GetBody(), key)
	})
}

// hasRoundComment reports whether the app ever mirrored a round in these comments: the
// sign that a missing status comment was deleted rather than never written.
func (s *snapshot) hasRoundComment(b *Base) bool {
	return slices.ContainsFunc(s.comments, func(c *github.IssueComment) bool {
		return b.isSelf(c.User) && render.HasMarkerPrefix(c.GetBody(), "round:")
	})
}

// load reads every comment of the issue and the ledger from the app's own status comment;
// a look-alike in anyone else's comment is never read.
func (b *Base) load(ctx context.Context, client *github.Client, ref issueRef) (*snapshot, error) {
	comments, err := listComments(ctx, client, ref)
	if err != nil {
		return nil, err
	}
	snap := &snapshot{comments: comments, archived: map[string]bool{}}
	var firstOwn *github.IssueComment
	for _, c := range snap.comments {
		if !b.isSelf(c.User) {
			continue
		}
		if firstOwn == nil {
			firstOwn = c
		}
		if !render.IsStatus(c.GetBody()) {
			continue
		}
		if snap.status != nil {
			zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Msg("Second status comment found; keeping the first")
			continue
		}
		if err := b.readStatus(ctx, snap, c); err != nil {
			return nil, fmt.Errorf("ledger of %s in comment %d: %w", ref.key(), c.GetID(), err)
		}
	}
	if !snap.hasLedger {
		snap.ledger = clarify.NewLedger(ref.Number)
	}
	if !snap.hasLedger && firstOwn != nil && (snap.damaged || snap.hasRoundComment(b)) {
		// The app was at work here but its ledger is damaged or gone (the status
		// comment deleted): fold the issue again from a little before the app's first
		// comment. Every posted message carries its marker, so nothing is posted twice.
		snap.rebuildFrom = firstOwn.GetCreatedAt().Time.Add(-firstRunWindow)
		snap.hasLedger, snap.damaged = true, true
	}
	return snap, nil
}

// readStatus takes the ledger from the app's status comment c, with its archives; a ledger
// that does not verify marks the snapshot damaged. The only error is a ledger written by a
// newer Clarify, which is left alone rather than downgraded.
func (b *Base) readStatus(ctx context.Context, snap *snapshot, c *github.IssueComment) error {
	logger := zerolog.Ctx(ctx)
	snap.status = c
	l, err := render.DecodeLedger(c.GetBody(), b.LedgerKey)
	switch {
	case errors.Is(err, render.ErrVersion):
		return err
	case err != nil:
		// Never trusted: a ledger whose MAC does not verify was edited by hand (or
		// written under another key). It is rebuilt from the comments instead.
		logger.Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Status comment does not verify; rebuilding the ledger from the comments")
		snap.damaged = true
		return nil
	}
	snap.ledger, snap.hasLedger = l, true
	archived, err := b.readArchives(snap)
	if err != nil {
		logger.Warn().Err(err).Msg("An archive of the ledger is missing or does not verify; rebuilding the ledger from the comments")
		snap.ledger, snap.hasLedger, snap.damaged = clarify.Ledger{}, false, true
		return nil
	}
	snap.archived = archived
	return nil
}

// listComments reads every comment of an issue, oldest first.
func listComments(ctx context.Context, client *github.Client, ref issueRef) ([]*github.IssueComment, error) {
	comments, err := allPages(func(page int) ([]*github.IssueComment, *github.Response, error) {
		return client.Issues.ListComments(ctx, ref.Owner, ref.Repo, ref.Number,
			&github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, fmt.Errorf("list comments of %s: %w", ref.key(), err)
	}
	slices.SortStableFunc(comments, func(a, b *github.IssueComment) int { return cmp.Compare(a.GetID(), b.GetID()) })
	return comments, nil
}
