package ledger

import (
	"github.com/clarify-app/clarify/render"
)

// IssueLedgerKey is the key that signs the blocks of one issue (render.IssueKey), named
// here for the callers that sign a ledger as the app would.
func IssueLedgerKey(key []byte, owner, repo string, number int) []byte {
	return render.IssueKey(key, owner, repo, number)
}

// BotLoginOf is the login GitHub gives the comments of the app of that slug.
func BotLoginOf(slug string) string { return slug + "[bot]" }
