package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// ErrLedgerMoved says a run's save found the status comment changed since the run read it:
// another process (a workflow run of the same issue in another concurrency group, such as
// the scheduled sweep) saved first, or would have been overwritten. Nothing of the run is
// lost: its comments are past the ledger's cursor and its posts carry markers, so running
// the event again from a fresh read applies exactly what is missing. RunAgain does that.
var ErrLedgerMoved = decisions.ErrLedgerMoved

// runAttempts bounds how often one event or issue is run again after another run moved its
// ledger.
const runAttempts = 4

// RunAgain runs f, and again while another run moved the ledger (ErrLedgerMoved), up to
// runAttempts times in all.
func RunAgain(ctx context.Context, f func() error) error {
	var err error
	for range runAttempts {
		if err = f(); !errors.Is(err, ErrLedgerMoved) {
			return err
		}
		zerolog.Ctx(ctx).Info().Err(err).Msg("Another run saved this issue meanwhile; running again from a fresh read")
	}
	return err
}

// GitHub's comment edit has no compare-and-swap (no If-Match on PATCH), so a save that
// another process may overwrite is checked by reads around its write. In bot action, the
// job's concurrency group runs one issue's event runs one at a time, and the
// scheduled run, in a group of its own, is the only run that may share an issue with
// another (Mode.inIssueGroup, Mode.sharesIssue). So the scheduled run alone checks, for both:
//
//   - just before its edit, it reads the status comment again: a body other than the one
//     it loaded means an event's run saved meanwhile, and it starts over;
//   - SettleDelay after its edit, it lists the issue's comments updated since its read:
//     the status comment in that list is its edit read back, and a body other than ours
//     whose ledger is not newer than ours was written from the same old read, so it starts
//     over; a comment made after its read and before its edit landed (a reply, a command,
//     a dispatch's mirror) is what started an event's run, whose save its edit may have
//     overwritten, so it starts over too, and applies that comment itself from a fresh
//     read.
//
// An event's run that saved between the scheduled run's two reads and lost its save to the
// scheduled run's edit is thus repaired by the scheduled run. Its comments are not lost in
// any case: they are past the cursor of the ledger that overwrote theirs, so the next run
// applies them again, and its posts' markers keep it from posting twice. Time acts again
// on every run, so a passed deadline lost the same way fires again.

// DefaultSettleDelay is how long a guarded save waits before reading its edit back.
const DefaultSettleDelay = 2 * time.Second

// checkUnmoved reads the status comment again just before a run that shares its issue
// edits it.
func (run *issueRun) checkUnmoved(ctx context.Context) error {
	if !run.mode.sharesIssue() || run.status == nil {
		return nil
	}
	now, _, err := run.client.Issues.GetComment(ctx, run.ref.Owner, run.ref.Repo, run.status.GetID())
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return fmt.Errorf("status comment %d of %s deleted: %w", run.status.GetID(), run.ref.String(), ErrLedgerMoved)
	}
	if err != nil {
		return fmt.Errorf("read status comment %d of %s again: %w", run.status.GetID(), run.ref.String(), err)
	}
	if now.GetBody() != run.status.GetBody() {
		return fmt.Errorf("status comment %d of %s changed before the save: %w", run.status.GetID(), run.ref.String(), ErrLedgerMoved)
	}
	return nil
}

// checkKept lists, SettleDelay after a run that shares its issue edited the status
// comment to body at revision rev, the comments updated since its read, and reports
// ErrLedgerMoved when another save overwrote the edit from an equally old read, or when a
// comment came meanwhile whose own run may have saved in between.
func (run *issueRun) checkKept(ctx context.Context, body string, rev int64) error {
	if !run.mode.sharesIssue() {
		return nil
	}
	if err := ghtransport.Sleep(ctx, run.settleDelay); err != nil {
		return err
	}
	id := run.status.GetID()
	since, err := ledger.ListCommentsSince(ctx, run.client, run.ref, run.readTo, 1)
	switch {
	case err != nil && ctx.Err() == nil:
		// The edit was taken; only whether another save overwrote it is unknown. Stopping
		// here would lose what follows the save (the wake-up): the next run would find the
		// state saved and send nothing. So the save stands; an overwrite, if any, is
		// repaired by the next run, as above.
		zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, id).Int64("rev", rev).
			Msg("Could not read the saved status comment back; taking the save as standing")
		return nil
	case err != nil:
		return fmt.Errorf("read status comment %d of %s back: %w", id, run.ref.String(), err)
	}
	if c := cameAfter(since, run); c != nil {
		zerolog.Ctx(ctx).Info().Int64(LogKeyComment, c.GetID()).Msg("A comment came while this run worked on the issue; running again")
		return fmt.Errorf("comment %d of %s came after the run's read: %w", c.GetID(), run.ref.String(), ErrLedgerMoved)
	}
	i := slices.IndexFunc(since, func(c *github.IssueComment) bool { return c.GetID() == id })
	if i < 0 {
		return fmt.Errorf("status comment %d of %s gone after the save: %w", id, run.ref.String(), ErrLedgerMoved)
	}
	if since[i].GetBody() == body {
		return nil
	}
	theirs, err := run.decodeLedger(run.ref, since[i].GetBody())
	if err == nil && theirs.Rev > rev {
		// A later save, which read ours first: ours stands inside it.
		return nil
	}
	zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, id).Int64("rev", rev).Int64("their_rev", theirs.Rev).
		Msg("Another run saved the ledger from the same read; running again")
	return fmt.Errorf("status comment %d of %s overwritten: %w", id, run.ref.String(), ErrLedgerMoved)
}

// cameAfter returns a comment among listed made after the snapshot's read, no later than
// the run's edit of the status comment, and not by this run; or nil. Only such a comment's
// run can have saved before that edit landed (a run reads after its comment is made): a
// later one's run reads the edit, so a stream of comments (a drive-by's) does not keep
// this run starting over. A full page may hide newer ones past it: then its last stands.
func cameAfter(listed []*github.IssueComment, snap *issueRun) *github.IssueComment {
	edited := snap.status.GetUpdatedAt().Time
	for _, c := range listed {
		if c.GetID() > snap.lastRead && !c.GetCreatedAt().After(edited) &&
			!slices.ContainsFunc(snap.known(), func(o *github.IssueComment) bool { return o.GetID() == c.GetID() }) {
			return c
		}
	}
	if len(listed) >= ledger.CommentsPage {
		return listed[len(listed)-1]
	}
	return nil
}

// checkMemoryWrites reads the repository's decisions back SettleDelay after each write the
// run made of them, when Mode.concurrent (workflow runs of different issues run at
// once, and nothing locks the memory between them). A write that another run's, from a
// read older than ours, overwrote is made again on top of theirs, so both decisions stand.
// It runs after the status comment's save, whose own read-back has mostly waited out the
// delay already; the ledger then says the decision was made, so the write is made again
// here rather than by running the issue again.
func (run *issueRun) checkMemoryWrites(ctx context.Context) error {
	for tries := 0; run.mode.concurrent() && len(run.memoryWrites) > 0; tries++ {
		w := run.memoryWrites[0]
		run.memoryWrites = run.memoryWrites[1:]
		if tries == sharedAttempts {
			// Not ErrLedgerMoved: the ledger is saved, so running the issue again would not
			// record the decision; the run fails loudly instead.
			return fmt.Errorf("decisions of %s/%s in #%d overwritten %d times by other runs; this run's change is not in them", run.ref.Owner, run.ref.Repo, w.Issue, tries)
		}
		if err := ghtransport.Sleep(ctx, time.Until(w.At.Add(run.settleDelay))); err != nil {
			return err
		}
		book, err := run.reader().ReadMemoryIn(ctx, run.client, run.ref.Owner, run.ref.Repo, w.Issue, true)
		switch {
		case err != nil && ctx.Err() == nil:
			// The write was taken; only whether another overwrote it is unknown, as with
			// the status comment's read-back.
			zerolog.Ctx(ctx).Warn().Err(err).Int("issue", w.Issue).Msg("Could not read the decisions back; taking the write as standing")
			continue
		case err != nil:
			return err
		case w.Kept(book.Memory):
			continue
		}
		run.decisionIssues.forget(run.ref.Owner + "/" + run.ref.Repo)
		zerolog.Ctx(ctx).Warn().Int("issue", w.Issue).Msg("Another run wrote the decisions from the same read; writing them again")
		if err := w.Redo(); err != nil {
			return err
		}
	}
	return nil
}

// sharedAttempts bounds how often one run writes again its change of an issue every run
// shares (the decisions, the dashboard), when other runs' writes keep dropping it.
const sharedAttempts = 4

// settleDelayOf is the wait before a read-back that a SettleDelay option asks for.
func settleDelayOf(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	if d == 0 {
		return DefaultSettleDelay
	}
	return d
}
