package handlers

import (
	"context"
	"fmt"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// A ledger that verifies was signed with the app's key, but not necessarily written by the
// app: `bot ledger import -status` signs whatever an AgentX file says, for an operator to
// paste over the status comment. A file whose cursor lies past every comment of the issue
// would make the app skip each later comment (no command taken, no reply), and one whose
// sequence lies below the ids the app already handed out would hand them out again. So a
// verified ledger is also held against the issue it sits in (the whole list of comments):
//   - a cursor past the newest comment comes back to it, and the ledger is kept: that is
//     also what the app's own ledger shows once the comment it last applied is deleted,
//     and rebuilding then would undo answers and ask them again;
//   - a sequence below an id the issue shows means the ledger lost clarifications the app
//     handed out, which nothing but a paste does: it is rebuilt from the comments like a
//     forged one.

// issueBounds returns the newest comment id of the issue and the highest clarification
// sequence it shows: in the ledger l itself, or in a round the app mirrored. Only the
// app's own round records count: an id quoted in a refusal or typed by anyone hands
// nothing out.
func (b *Base) issueBounds(l clarify.Ledger, comments []*github.IssueComment) (newest int64, seq int) {
	for _, c := range l.Clarifications {
		if n, ok := clarify.SeqOf(c.ID, l.Issue); ok {
			seq = max(seq, n)
		}
	}
	for _, c := range comments {
		newest = max(newest, c.GetID())
		if !b.isSelf(c.User) {
			continue
		}
		if r, ok := render.ReadRecord(c.GetBody()); ok && r.Kind == render.RecordRound {
			if n, ok := clarify.SeqOf(r.ID, l.Issue); ok {
				seq = max(seq, n)
			}
		}
	}
	return newest, seq
}

// heldToIssue holds the verified ledger l of status comment c to the issue's comments: it
// brings a cursor past the newest comment back to it, and reports whether the ledger must
// be rebuilt instead (its sequence below an id the issue shows), marking the snapshot
// damaged then.
func (b *Base) heldToIssue(ctx context.Context, snap *snapshot, l *clarify.Ledger, c *github.IssueComment) (rebuild bool) {
	newest, seq := b.issueBounds(*l, snap.comments)
	logger := zerolog.Ctx(ctx).With().Int64(LogKeyComment, c.GetID()).Logger()
	if l.Seq < seq {
		logger.Warn().Str("reason", fmt.Sprintf("its sequence %d is below %s, which it holds or the app already mirrored", l.Seq, clarify.FormatID(l.Issue, seq))).
			Msg("Status comment verifies but contradicts the issue (a pasted import?); rebuilding the ledger from the comments")
		snap.damaged = true
		return true
	}
	if l.Cursor > newest {
		logger.Info().Int64("cursor", l.Cursor).Int64("newest", newest).
			Msg("The ledger's cursor is past the issue's newest comment (a deleted comment, or a pasted import); it comes back to the newest")
		l.Cursor = newest
	}
	return false
}
