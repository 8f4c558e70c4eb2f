package handlers

import (
	"crypto/ed25519"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// commentKey is the Ed25519 key the app signs its comments with: drawn from the ledger key
// where its account is shared, for askers, who verify with its public half and never hold
// the ledger key (ledger/public.go); nil elsewhere (the App's own account is proof enough).
func (b *Base) commentKey() ed25519.PrivateKey {
	if !ledger.SharedAccount(b.BotLogin()) || len(b.LedgerKey) == 0 {
		return nil
	}
	key, err := render.SigningKey(b.LedgerKey)
	if err != nil {
		return nil
	}
	return key
}

// signed is body as the app writes it as a comment of ref's issue: signed for askers
// where its account is shared (commentKey).
func (b *Base) signed(ref clarify.IssueRef, body string) string {
	return render.SignComment(b.commentKey(), ref.Owner, ref.Repo, ref.Number, body)
}
