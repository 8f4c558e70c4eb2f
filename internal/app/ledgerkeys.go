package app

import (
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// LedgerKeyring is the keyring serve checks ledgers with, drawn from the environment
// (ledger.KeyringFromEnv), with flagKey, when given, as the current key.
func LedgerKeyring(flagKey string) (render.Keyring, error) { return ledger.KeyringFromEnv(flagKey) }
