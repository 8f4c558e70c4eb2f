package render

// Rebuilt returns the comment saying that the app did not trust the ledger of the status
// comment (edited by hand, or deleted when deleted is false) and rebuilt it from the
// issue's comments.
func Rebuilt(edited bool, key string) string {
	what := "The status comment of this issue was deleted"
	if edited {
		what = "The status comment of this issue was changed by hand, so its hidden ledger no longer verifies"
	}
	return finish(what+". Clarify rebuilt the ledger from the issue's comments, and the status comment shows the result. "+
		"Edit the protocol with commands (`/clarify resolve`, `/clarify abandon`, …), not by editing Clarify's comments.\n", key)
}
