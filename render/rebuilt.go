package render

import (
	"fmt"

	"github.com/clarify-app/clarify/clarify"
)

// RebuildCause says why the app did not trust the ledger of a status comment.
type RebuildCause int

// The causes a rebuild notice names.
const (
	// RebuiltDeleted: the status comment was deleted.
	RebuiltDeleted RebuildCause = iota
	// RebuiltEdited: its ledger no longer verifies (edited by hand, or pasted from another issue).
	RebuiltEdited
	// RebuiltOlder: its ledger verifies but is older than one the app wrote since (put back
	// from the comment's edit history).
	RebuiltOlder
)

// Rebuilt returns the comment saying that the app did not trust the ledger of the status
// comment, for the reason given, and rebuilt it from the comments.
func Rebuilt(why RebuildCause, key string) string {
	what := "The status comment of this issue was deleted"
	switch why {
	case RebuiltEdited:
		what = "The status comment of this issue was changed by hand, so its hidden ledger no longer verifies"
	case RebuiltOlder:
		what = "The status comment of this issue was put back to an older version, whose hidden ledger misses what happened since"
	}
	return finish(what+". Clarify rebuilt the ledger from the issue's comments, and the status comment shows the result. "+
		"Edit the protocol with commands (`/clarify resolve`, `/clarify abandon`, …), not by editing Clarify's comments.\n", key,
		Record{V: RecordVersion, Kind: "rebuilt"})
}

// Archive returns an archive comment: a one-line note of what it holds, then the signed
// block of settled clarifications moved out of the ledger.
func Archive(moved []clarify.Clarification, block, key string) string {
	first, last := "", ""
	if len(moved) > 0 {
		first, last = id(moved[0].ID), id(moved[len(moved)-1].ID)
	}
	return finish(fmt.Sprintf("_Clarify archive: %d settled clarification(s), %s … %s, moved out of the status comment to keep it under GitHub's size limit. `/clarify show CLR-…` still shows each._\n\n%s\n",
		len(moved), first, last, block), key, Record{V: RecordVersion, Kind: "archive"})
}
