package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// cursorLag is how many applied-but-unsaved comments a run tolerates before it saves the
// ledger only to move its cursor: saving on every plain comment would spend a write per
// comment, and replaying a few no-op comments on the next run costs only reads.
const cursorLag = 20

// toSave is the ledger to save and its revision: the loaded one when nothing changed and
// only a few comments were applied (moving the cursor alone costs a write), and a new
// revision, stamped at now, whenever what is saved differs from what was loaded.
func toSave(snap *issueRun, l clarify.Ledger, applied int, now time.Time) (clarify.Ledger, error) {
	l.Head = render.HeadSum(snap.head)
	changed, err := ledgerChanged(snap.ledger, l)
	if err != nil {
		return l, err
	}
	if !changed && !snap.damaged && snap.status != nil && applied < cursorLag && !snap.refresh {
		l = snap.ledger
	}
	if changed || snap.damaged || (snap.status != nil && l.Cursor != snap.ledger.Cursor) {
		l = newRevision(snap, l, now)
	}
	return l, nil
}

// newRevision is l as a new revision saved at now. Above every revision known, not only
// the loaded one: a rebuilt ledger starts afresh, and must not read as older than the one
// it replaces. The time tells a later reader that the body is the app's own save, not one
// put back from the comment's edit history (ledger/trust.go).
func newRevision(snap *issueRun, l clarify.Ledger, now time.Time) clarify.Ledger {
	l.Rev = max(snap.ledger.Rev, snap.revFloor) + 1
	l.Saved, l.Read = now.UTC(), snap.readAt.UTC()
	return l
}

// save writes the ledger into the status comment when it changed (or its cursor lags too
// far), and creates the status comment the first time there is something to show.
func (run *issueRun) save(ctx context.Context) (clarify.Ledger, error) {
	l, applied := run.folded.ledger, run.folded.applied
	if !run.hasLedger && len(l.Clarifications) == 0 && len(l.Assumptions) == 0 {
		return l, nil
	}
	l, err := toSave(run, l, applied, run.Now())
	if err != nil {
		return l, err
	}
	l, body, err := run.statusBody(ctx, l)
	if err != nil {
		return l, err
	}
	if run.status == nil {
		return l, run.createStatus(ctx, body)
	}
	if run.status.GetBody() == body {
		return l, nil
	}
	if l.Rev == run.ledger.Rev {
		// The body changes while the ledger does not (signed anew after an upgrade, its head
		// put back): every edit of the app's is a save of its own, stamped.
		if l, body, err = run.statusBody(ctx, newRevision(run, l, run.Now())); err != nil {
			return l, err
		}
	}
	if err := run.checkUnmoved(ctx); err != nil {
		return l, err
	}
	edited, _, err := run.client.Issues.EditComment(ctx, run.ref.Owner, run.ref.Repo, run.status.GetID(), &github.IssueComment{Body: &body})
	if err != nil {
		return l, fmt.Errorf("update status comment %d on %s: %w", run.status.GetID(), run.ref.String(), err)
	}
	run.status = edited
	return l, run.checkKept(ctx, body, l.Rev)
}

// statusBody renders the status comment of l, first moving settled clarifications into an
// archive comment when the ledger has grown too big; it returns the ledger as it then is.
func (run *issueRun) statusBody(ctx context.Context, l clarify.Ledger) (clarify.Ledger, string, error) {
	l, block, err := run.archiveIfLarge(ctx, l, run.archived)
	if err != nil {
		return l, "", fmt.Errorf("encode ledger of %s: %w", run.ref.String(), err)
	}
	main := mainPart(l, run.archived)
	if block == "" {
		if block, err = run.keys(run.ref).EncodeLedger(main); err != nil {
			return l, "", fmt.Errorf("encode ledger of %s: %w", run.ref.String(), err)
		}
	}
	body := run.signed(run.ref, run.keys(run.ref).Seal(render.StatusUnder(run.head, main, block), render.StatusMarker))
	if len(body) > render.MaxCommentBytes {
		// Only open clarifications are left to fill it (archives take the settled ones):
		// refuse loudly rather than let GitHub's 422 lose the update.
		return l, "", fmt.Errorf("status comment of %s would be %d bytes, over %d", run.ref.String(), len(body), render.MaxCommentBytes)
	}
	return l, body, nil
}

// createStatus posts the issue's first status comment.
func (run *issueRun) createStatus(ctx context.Context, body string) error {
	c, err := run.postOnce(ctx, render.StatusMarker, body)
	if err != nil {
		return fmt.Errorf("status comment: %w", err)
	}
	run.status = c
	if c.GetBody() != body {
		// Another replica created the status comment first, from a snapshot that may
		// lack this run's events; fail so the delivery is logged, and the next event's
		// fold (its cursor is older) takes them in.
		return fmt.Errorf("status comment of %s was created concurrently by another replica: %w", run.ref.String(), ErrLedgerMoved)
	}
	return nil
}

// ledgerChanged compares two ledgers on everything but the cursor, the revision, its times
// and the hints: a hint alone is not worth a write (it rides along with the next save).
func ledgerChanged(a, b clarify.Ledger) (bool, error) {
	a.Cursor, a.Rev, b.Cursor, b.Rev = 0, 0, 0, 0
	a.Saved, b.Saved, a.Read, b.Read = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	a.Hints, b.Hints = clarify.Hints{}, clarify.Hints{}
	ja, err := json.Marshal(a)
	if err != nil {
		return false, err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return false, err
	}
	return string(ja) != string(jb), nil
}

// Past roomCheckAbove bytes of open text, a ledger is encoded to see whether it still fits;
// below it, it always does (incompressible text, base64 and the status table included).
// statusBudget leaves room under GitHub's limit for the settled clarifications that stay
// in the status comment until the next archive.
const (
	roomCheckAbove = 12_000
	statusBudget   = render.MaxCommentBytes - 8_000
)

// roomFor reports whether the open clarifications of l, which no archive takes, fit in
// the status comment with room to spare, beside reserved bytes (the head).
func (id *Identity) roomFor(l clarify.Ledger, reserved int) bool {
	if clarify.OpenText(l) < roomCheckAbove-reserved {
		return true
	}
	open := l
	open.Clarifications = nil
	for _, c := range l.Clarifications {
		if c.Status.Open() {
			open.Clarifications = append(open.Clarifications, c)
		}
	}
	block, err := render.EncodeLedger(open, id.LedgerKey)
	return err == nil && reserved+len(render.Status(open, block)) <= statusBudget
}
