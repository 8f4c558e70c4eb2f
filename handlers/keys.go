package handlers

import (
	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// IssueLedgerKey is the key that signs the blocks of one issue (render.IssueKey), named
// here for the callers that sign a ledger as the app would.
func IssueLedgerKey(key []byte, owner, repo string, number int) []byte {
	return render.IssueKey(key, owner, repo, number)
}

// keys are the issue's keys from the app's keyring: which keys sign and verify its blocks
// is render.Keyring's rule.
func (b *Base) keys(ref issueRef) render.IssueKeys {
	return render.Keyring{Current: b.LedgerKey, Previous: b.PreviousKeys}.Issue(ref.Owner, ref.Repo, ref.Number)
}

// decodeLedger verifies and decodes the ledger in a status comment of the issue.
func (b *Base) decodeLedger(ref issueRef, body string) (clarify.Ledger, error) {
	return b.keys(ref).DecodeLedger(body)
}

// decodeArchive is decodeLedger for an archive comment.
func (b *Base) decodeArchive(ref issueRef, body string) (clarify.Ledger, error) {
	return b.keys(ref).DecodeArchive(body)
}
