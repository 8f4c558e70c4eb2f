package ledger

import (
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"

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
//
// And a verified ledger may be one the app wrote, but not its last: anyone who may edit the
// status comment can put back a body from the comment's edit history, and that edit starts
// no run of a workflow. Taken, it would apply again what came since (a second wake-up for
// the same answer, a revision saved twice). So a ledger is also held to what a reader knows
// of the app's later saves:
//   - the floor: the newest revision this reader knows the app wrote (a process that lives
//     on remembers it; an edit's payload carries the body it replaced);
//   - the time of its save (clarify.Ledger.Saved): the app's save is the only edit it makes
//     of its status comment, so a comment GitHub shows updated more than SaveSkew after it
//     holds a body put back (or changed by hand), unless the floor vouches for the ledger
//     as the newest. A ledger with no time of its save (written before Clarify stamped it,
//     or by `bot ledger import`) is held to the floor alone, and so a run of a long issue
//     reads the whole issue for it (handlers/window.go).

// Distrust is why a verified ledger is not trusted, and so rebuilt from the comments.
type Distrust struct {
	// Older says the app wrote a newer revision since (the floor).
	Older bool
	// Why says it for a person or a log line.
	Why string
}

// SaveSkew is how much later than a ledger's save time (Ledger.Saved, by the writer's
// clock) GitHub may show its status comment updated, with the ledger still taken for the
// app's last save. It covers the writer's clock running behind GitHub's (NTP keeps runners
// and servers within a second; an App whose clock is a minute off cannot authenticate) and
// a save held on its way (retries wait 90 s at most, the pacer about a minute when writes
// crowd). A body put back sooner after its save than that is not told apart by its time:
// the wake-up's key (clarify.WakeKey) lets a receiver drop the repeat.
const SaveSkew = 5 * time.Minute

// Trust is the one decision of whether a verified ledger l, read from the issue's status
// comment status among comments, is trusted: the app's runs and bot ledger both make it.
// A ledger that is not the app's last save is not (Older): its revision is below floor
// (the newest this reader knows the app wrote; 0: none), or, unless floor vouches for it,
// GitHub shows status updated more than SaveSkew after the ledger was saved. Nor is one
// whose sequence is below an id the issue shows. A trusted ledger whose cursor lies past
// the newest comment has it brought back to it, and moved says so.
func (r Reader) Trust(ref clarify.IssueRef, l *clarify.Ledger, status *github.IssueComment, comments []*github.IssueComment, floor int64) (no *Distrust, moved bool) {
	if l.Rev < floor {
		// It verifies, so the app wrote it, but it wrote a newer one since: a body put back
		// from the comment's edit history would undo what happened after it (time's
		// effects, a deadlock broken), so it is rebuilt like a forged one.
		return &Distrust{Older: true, Why: fmt.Sprintf("its revision %d is below %d, which the app wrote since", l.Rev, floor)}, false
	}
	if at := status.GetUpdatedAt().Time; floor < l.Rev && !l.Saved.IsZero() && at.Sub(l.Saved) > SaveSkew {
		return &Distrust{Older: true, Why: fmt.Sprintf("its comment was updated at %s, %s after the app saved it: someone else put back an older body "+
			"(from the comment's edit history) or changed it", at.UTC().Format(time.RFC3339), at.Sub(l.Saved).Round(time.Second))}, false
	}
	newest, seq := r.issueBounds(ref, *l, comments)
	if l.Seq < seq {
		return &Distrust{Why: fmt.Sprintf("its sequence %d is below %s, which it holds or the app already mirrored", l.Seq, clarify.FormatID(l.Issue, seq))}, false
	}
	if l.Cursor > newest {
		l.Cursor = newest
		return nil, true
	}
	return nil, false
}

// issueBounds returns the newest comment id of the issue and the highest clarification
// sequence it shows: in the ledger l itself, or in a round the app mirrored. Only the
// app's own round records count: an id quoted in a refusal or typed by anyone hands
// nothing out.
func (r Reader) issueBounds(ref clarify.IssueRef, l clarify.Ledger, comments []*github.IssueComment) (newest int64, seq int) {
	for _, c := range l.Clarifications {
		if n, ok := clarify.SeqOf(c.ID, l.Issue); ok {
			seq = max(seq, n)
		}
	}
	for _, c := range comments {
		newest = max(newest, c.GetID())
		if !r.OwnsBy(ref, c.GetUser(), c.GetBody()) {
			continue
		}
		if rec, ok := render.ReadRecord(c.GetBody()); ok && rec.Kind == render.RecordRound {
			if n, ok := clarify.SeqOf(rec.ID, l.Issue); ok {
				seq = max(seq, n)
			}
		}
	}
	return newest, seq
}
