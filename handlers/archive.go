package handlers

import (
	"context"
	"fmt"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// GitHub refuses a comment body over 65,536 characters, so the ledger cannot grow in one
// comment forever. When its hidden block passes archiveAbove bytes, the oldest settled
// clarifications move, whole, into archive comments of the app's own (signed like the
// ledger, listed in it) until the block is back under archiveBelow. Nothing is dropped:
// every run reads the archives back, so Apply always sees the whole ledger.
const (
	archiveAbove = 40_000
	archiveBelow = 25_000
)

// readArchives merges the ledger's archives into the snapshot's ledger (Reader) and
// returns their ids.
func (run *issueRun) readArchives() (map[string]bool, error) {
	return run.reader().MergeArchives(run.ref, &run.ledger, run.comments)
}

// mainPart is the ledger as the status comment holds it: without the archived clarifications.
func mainPart(l clarify.Ledger, archived map[string]bool) clarify.Ledger {
	out := l
	out.Clarifications = nil
	for _, c := range l.Clarifications {
		if !archived[c.ID] {
			out.Clarifications = append(out.Clarifications, c)
		}
	}
	return out
}

// archiveIfLarge moves the oldest settled clarifications into a new archive comment when
// the ledger's block has grown past archiveAbove, and returns the ledger with the archive
// listed, and the block of its main part when that is still the one to save ("" when
// the ledger changed). It posts at most one archive per run; an archive already posted by
// a run that failed afterwards is found by its marker and reused, so a retry posts
// nothing twice.
func (run *issueRun) archiveIfLarge(ctx context.Context, l clarify.Ledger, archived map[string]bool) (clarify.Ledger, string, error) {
	block, err := run.keys(run.ref).EncodeLedger(mainPart(l, archived))
	if err != nil || len(block) <= archiveAbove {
		return l, block, err
	}
	var move []clarify.Clarification
	for _, c := range l.Clarifications {
		if archived[c.ID] || c.Status.Open() {
			continue
		}
		move = append(move, c)
		archived[c.ID] = true
		block, err = run.keys(run.ref).EncodeLedger(mainPart(l, archived))
		if err != nil {
			return l, "", err
		}
		if len(block) <= archiveBelow {
			break
		}
	}
	if len(move) == 0 {
		return l, block, nil // nothing settled to move; save says so if the block no longer fits
	}
	ab, err := run.keys(run.ref).EncodeArchive(clarify.Ledger{Version: clarify.LedgerVersion, Issue: l.Issue, Clarifications: move})
	if err != nil {
		return l, "", err
	}
	key := fmt.Sprintf("archive:%s:%s", move[0].ID, move[len(move)-1].ID)
	c, err := run.postOnce(ctx, render.Marker(key), render.Archive(move, ab, key))
	if err != nil {
		return l, "", fmt.Errorf("archive comment: %w", err)
	}
	l.Archives = append(l.Archives, c.GetID())
	return l, "", nil
}
