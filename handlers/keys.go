package handlers

import (
	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// keys are the issue's keys from the app's keyring: which keys sign and verify its blocks
// is render.Keyring's rule.
func (b *Base) keys(ref clarify.IssueRef) render.IssueKeys {
	return b.reader().Keys.Issue(ref.Owner, ref.Repo, ref.Number)
}

// decodeLedger verifies and decodes the ledger in a status comment of the issue.
func (b *Base) decodeLedger(ref clarify.IssueRef, body string) (clarify.Ledger, error) {
	return b.reader().DecodeStatus(ref, body)
}

// reader reads the issue's ledger as bot ledger does, under the app's keyring.
func (b *Base) reader() ledger.LedgerReader {
	return ledger.LedgerReader{Bot: b.BotLogin(), Keys: render.Keyring{Current: b.LedgerKey, Previous: b.PreviousKeys}}
}
