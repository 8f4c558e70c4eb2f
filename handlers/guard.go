package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// ErrLedgerMoved says a run's save found the status comment changed since the run read it:
// another process (a workflow run of the same issue in another concurrency group, such as
// the scheduled sweep) saved first, or would have been overwritten. Nothing of the run is
// lost: its comments are past the ledger's cursor and its posts carry markers, so running
// the event again from a fresh read applies exactly what is missing. RunAgain does that.
var ErrLedgerMoved = errors.New("the issue's ledger moved while this run worked on it")

// GitHub's comment edit has no compare-and-swap (no If-Match on PATCH), so between two
// processes the check is two reads around the write, when Base.Concurrent is set:
//
//   - SettleDelay after the edit, the status comment is read again; a body other than ours
//     whose ledger is not newer than ours was written from the same old read, so one of
//     the two saves was lost, and this run starts over (the other one, reading ours, does
//     too, or wins);
//   - just before the edit, it is read again too, but only when the run's own read is
//     older than half of SettleDelay: a body other than the one the run loaded means
//     someone saved meanwhile, and the run starts over.
//
// The read before the edit is needed only for a competitor that edited and read back
// between our read and our edit: its read-back then precedes our edit, and nobody would
// see ours overwrite it. A competitor's read-back comes SettleDelay after its edit, so
// when our read is younger than half of SettleDelay, any competitor edit since our read
// is read back after our edit lands (the other half is the edit's own time), and the
// competitor starts over from ours: the read-back alone catches it. In a workflow run
// that reads, applies and edits at once, that saves a request per save.
//
// What remains is a window: a competitor whose last read precedes our edit, whose
// edit lands after our read-after-edit, and who then reads its own body back. Waiting
// SettleDelay before reading back makes that window the time a competitor takes between
// its two requests beyond SettleDelay. The lost save is not lost for good either: the
// comments it applied are past its cursor only in the overwritten body, so the next run
// applies them again; only its posts' markers keep it from posting twice.

// DefaultSettleDelay is how long a guarded save waits before reading its edit back.
const DefaultSettleDelay = 2 * time.Second

// checkUnmoved reads the status comment again just before the run edits it, when the
// run's read of it is too old for a competitor's read-back to catch the edit.
func (b *Base) checkUnmoved(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot) error {
	if !b.Concurrent || snap.status == nil || time.Since(snap.readAt) < b.settleDelay()/2 {
		return nil
	}
	now, _, err := client.Issues.GetComment(ctx, ref.Owner, ref.Repo, snap.status.GetID())
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		return fmt.Errorf("status comment %d of %s deleted: %w", snap.status.GetID(), ref.key(), ErrLedgerMoved)
	}
	if err != nil {
		return fmt.Errorf("read status comment %d of %s again: %w", snap.status.GetID(), ref.key(), err)
	}
	if now.GetBody() != snap.status.GetBody() {
		return fmt.Errorf("status comment %d of %s changed before the save: %w", snap.status.GetID(), ref.key(), ErrLedgerMoved)
	}
	return nil
}

// checkKept reads the status comment back after the run's edit of it wrote body at
// revision rev, and reports ErrLedgerMoved when another save overwrote it from an equally
// old read.
func (b *Base) checkKept(ctx context.Context, client *github.Client, ref issueRef, id int64, body string, rev int64) error {
	if !b.Concurrent {
		return nil
	}
	if err := ghtransport.Sleep(ctx, b.settleDelay()); err != nil {
		return err
	}
	now, err := readBack(ctx, client, ref, id)
	switch {
	case err != nil && !ghtransport.IsStatus(err, http.StatusNotFound) && ctx.Err() == nil:
		// The edit was taken; only whether another save overwrote it is unknown. Stopping
		// here would lose what follows the save (the wake-up): the next run would find the
		// state saved and send nothing. So the save stands; an overwrite, if any, is
		// repaired by the next run, as below.
		zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, id).Int64("rev", rev).
			Msg("Could not read the saved status comment back; taking the save as standing")
		return nil
	case err != nil:
		return fmt.Errorf("read status comment %d of %s back: %w", id, ref.key(), err)
	}
	if now.GetBody() == body {
		return nil
	}
	theirs, err := b.decodeLedger(ref, now.GetBody())
	if err == nil && theirs.Rev > rev {
		// A later save, which read ours first: ours stands inside it.
		return nil
	}
	zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, id).Int64("rev", rev).Int64("their_rev", theirs.Rev).
		Msg("Another run saved the ledger from the same read; running again")
	return fmt.Errorf("status comment %d of %s overwritten: %w", id, ref.key(), ErrLedgerMoved)
}

// memoryWrite is a write of the repository's decisions that a run made, for its read-back.
type memoryWrite struct {
	at    time.Time // when it was written, by this process's clock
	issue int       // the decisions issue written
	// kept says whether the memory read back holds the write's change.
	kept func(clarify.Memory) bool
	// redo makes the change again, on a fresh read, and notes that write in its turn.
	redo func() error
}

// checkMemoryWrites reads the repository's decisions back SettleDelay after each write the
// run made of them, when Base.Concurrent is set (workflow runs of different issues run at
// once, and nothing locks the memory between them). A write that another run's, from a
// read older than ours, overwrote is made again on top of theirs, so both decisions stand.
// It runs after the status comment's save, whose own read-back has mostly waited out the
// delay already; the ledger then says the decision was made, so the write is made again
// here rather than by running the issue again.
func (b *Base) checkMemoryWrites(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot) error {
	for tries := 0; b.Concurrent && len(snap.memoryWrites) > 0; tries++ {
		w := snap.memoryWrites[0]
		snap.memoryWrites = snap.memoryWrites[1:]
		if tries == sharedAttempts {
			// Not ErrLedgerMoved: the ledger is saved, so running the issue again would not
			// record the decision; the run fails loudly instead.
			return fmt.Errorf("decisions of %s/%s in #%d overwritten %d times by other runs; this run's change is not in them", ref.Owner, ref.Repo, w.issue, tries)
		}
		if err := ghtransport.Sleep(ctx, time.Until(w.at.Add(b.settleDelay()))); err != nil {
			return err
		}
		book, err := b.reader().readMemoryIn(ctx, client, ref.Owner, ref.Repo, w.issue, true)
		switch {
		case err != nil && ctx.Err() == nil:
			// The write was taken; only whether another overwrote it is unknown, as with
			// the status comment's read-back.
			zerolog.Ctx(ctx).Warn().Err(err).Int("issue", w.issue).Msg("Could not read the decisions back; taking the write as standing")
			continue
		case err != nil:
			return err
		case w.kept(book.memory):
			continue
		}
		b.decisionIssues.forget(ref.Owner + "/" + ref.Repo)
		zerolog.Ctx(ctx).Warn().Int("issue", w.issue).Msg("Another run wrote the decisions from the same read; writing them again")
		if err := w.redo(); err != nil {
			return err
		}
	}
	return nil
}

// sharedAttempts bounds how often one run writes again its change of an issue every run
// shares (the decisions, the dashboard), when other runs' writes keep dropping it.
const sharedAttempts = 4

// readBack reads the saved status comment, and once more when GitHub's answer was a
// failure that says nothing of the comment (a 404 does: it was deleted).
func readBack(ctx context.Context, client *github.Client, ref issueRef, id int64) (*github.IssueComment, error) {
	now, _, err := client.Issues.GetComment(ctx, ref.Owner, ref.Repo, id)
	if err == nil || ghtransport.IsStatus(err, http.StatusNotFound) || ctx.Err() != nil {
		return now, err
	}
	now, _, err = client.Issues.GetComment(ctx, ref.Owner, ref.Repo, id)
	return now, err
}

func (b *Base) settleDelay() time.Duration {
	if b.SettleDelay < 0 {
		return 0
	}
	if b.SettleDelay == 0 {
		return DefaultSettleDelay
	}
	return b.SettleDelay
}
