package handlers

import (
	"context"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
)

// heldToIssue makes the trust decision for the app's run on the verified ledger l of
// status comment c, and logs it: it reports whether the ledger must be rebuilt, marking
// the snapshot damaged (and older, below the floor) then.
func (run *issueRun) heldToIssue(ctx context.Context, l *clarify.Ledger, c *github.IssueComment) (rebuild bool) {
	logger := zerolog.Ctx(ctx).With().Int64(LogKeyComment, c.GetID()).Logger()
	cursor := l.Cursor
	no, moved := run.reader().Trust(run.ref, l, c, run.comments, run.revFloor)
	switch {
	case no != nil && no.Older:
		logger.Warn().Int64("rev", l.Rev).Int64("newest_rev", run.revFloor).Str("reason", no.Why).
			Msg("Status comment holds an older ledger than the app wrote; rebuilding the ledger from the comments, waking nobody")
		// The app saved a newer revision after this one: the rebuild saves above both.
		run.revFloor = max(run.revFloor, l.Rev+1)
	case no != nil:
		logger.Warn().Str("reason", no.Why).
			Msg("Status comment verifies but contradicts the issue (a pasted import?); rebuilding the ledger from the comments")
	case moved:
		logger.Info().Int64("cursor", cursor).Int64("newest", l.Cursor).
			Msg("The ledger's cursor is past the issue's newest comment (a deleted comment, or a pasted import); it comes back to the newest")
	}
	if no != nil {
		run.damaged, run.older = true, no.Older
	}
	return no != nil
}
