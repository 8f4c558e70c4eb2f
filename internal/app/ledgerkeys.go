package app

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/render"
)

// LedgerKeyring is the keyring serve checks ledgers with, drawn from the environment as
// serve draws it (CLARIFY_LEDGER_KEY, else the private key), with flagKey, when given, as
// the current key: what bot ledger verifies and signs with. No key at all is an empty ring.
func LedgerKeyring(flagKey string) (render.Keyring, error) {
	var cfg Config
	cfg.FromEnv()
	// The private key as serve reads it (from GITHUB_APP_PRIVATE_KEY_FILE, \n unescaped),
	// or the ledger key drawn from it would differ.
	cfg.LoadPrivateKey()
	if flagKey != "" {
		cfg.Clarify.LedgerKey = flagKey
	}
	if cfg.Clarify.LedgerKey == "" && cfg.PrivateKeyFile != "" && cfg.Github.App.PrivateKey == "" {
		// A key file named but unreadable must not turn into "no key": the ledger would be
		// read unchecked when the operator meant it checked.
		return render.Keyring{}, fmt.Errorf("GITHUB_APP_PRIVATE_KEY_FILE %q could not be read, or is empty", cfg.PrivateKeyFile)
	}
	if cfg.Clarify.LedgerKey == "" && strings.TrimSpace(cfg.Github.App.PrivateKey) == "" {
		return render.Keyring{}, nil
	}
	return render.Keyring{Current: cfg.LedgerKeyBytes(), Previous: cfg.PreviousLedgerKeys()}, nil
}
