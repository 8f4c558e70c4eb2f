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
// verified ledger is also held against the issue it sits in, and one the issue contradicts
// is rebuilt from the comments like a forged one.

// contradiction says how a verified ledger contradicts the issue's comments (all of them,
// the status comment among them), or "" when it does not: its cursor is past the newest
// comment, or its sequence below a clarification id it holds itself or the app mirrored
// in a round.
func (b *Base) contradiction(l clarify.Ledger, comments []*github.IssueComment) string {
	var newest int64
	seq := 0
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
		// Only the app's own round records: an id quoted in a refusal or typed by anyone
		// hands nothing out.
		if r, ok := render.ReadRecord(c.GetBody()); ok && r.Kind == render.RecordRound {
			if n, ok := clarify.SeqOf(r.ID, l.Issue); ok {
				seq = max(seq, n)
			}
		}
	}
	switch {
	case l.Cursor > newest:
		return fmt.Sprintf("its cursor %d is past the issue's newest comment %d", l.Cursor, newest)
	case l.Seq < seq:
		return fmt.Sprintf("its sequence %d is below %s, which it holds or the app already mirrored", l.Seq, clarify.FormatID(l.Issue, seq))
	}
	return ""
}

// distrusted marks the snapshot damaged, so that its ledger is rebuilt from the comments,
// when the verified ledger l of status comment c contradicts the issue's comments.
func (b *Base) distrusted(ctx context.Context, snap *snapshot, l clarify.Ledger, c *github.IssueComment) bool {
	why := b.contradiction(l, snap.comments)
	if why == "" {
		return false
	}
	zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Str("reason", why).
		Msg("Status comment verifies but contradicts the issue (a pasted import?); rebuilding the ledger from the comments")
	snap.damaged = true
	return true
}
