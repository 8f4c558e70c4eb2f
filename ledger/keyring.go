package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/clarify-app/clarify/render"
)

// DefaultAppSlug is the app's slug when none is set (clarify.app_slug, CLARIFY_APP_SLUG):
// its comments are clarify[bot]'s.
const DefaultAppSlug = "clarify"

// KeySource is what the app's ledger keys are drawn from, as its settings give them: serve
// (internal/app) and the readers that verify ledgers outside it (bot ledger, gh clarify)
// draw them by this one rule.
type KeySource struct {
	// LedgerKey is clarify.ledger_key (CLARIFY_LEDGER_KEY); empty: drawn from PrivateKey.
	LedgerKey string
	// Previous is clarify.previous_ledger_keys, which still verify after a rotation.
	Previous []string
	// PrivateKey is the App's PEM private key as read (LoadPrivateKey).
	PrivateKey string
	// WebhookSecret is github.app.webhook_secret, which earlier versions drew a key from.
	WebhookSecret string
}

// Current returns the ledger MAC key: the configured one, or one derived from the app's
// private key. Never from the webhook secret: every status comment publishes a ledger and
// its MAC, and a key a fast function draws from a guessable secret would let anyone test
// guesses of that secret offline, then sign deliveries.
func (s KeySource) Current() []byte {
	if s.LedgerKey != "" {
		return []byte(s.LedgerKey)
	}
	return privateKeyLedgerKey(canonicalPEM(s.PrivateKey))
}

// PreviousKeys returns the keys that still verify ledgers (never sign them): the
// configured previous keys, for a rotation without a rebuild notice in every issue, and
// the keys earlier versions drew, so that an upgrade re-signs each ledger at its next save
// instead of rebuilding it: from the private key's text exactly as given (before the key
// was read without the whitespace around it), and from the webhook secret.
func (s KeySource) PreviousKeys() [][]byte {
	var out [][]byte
	for _, k := range s.Previous {
		out = append(out, []byte(k))
	}
	if s.LedgerKey == "" && canonicalPEM(s.PrivateKey) != s.PrivateKey {
		out = append(out, privateKeyLedgerKey(s.PrivateKey))
	}
	return append(out, render.DeriveKey([]byte(s.WebhookSecret), "clarify ledger key v1"))
}

// canonicalPEM is the key without the whitespace around it and with Unix line breaks: the
// same key pasted into YAML, passed as $(cat key.pem) or read from a file differs only
// there, and moving it between them must not change the ledger key drawn from it.
func canonicalPEM(key string) string {
	return strings.TrimSpace(strings.ReplaceAll(key, "\r\n", "\n"))
}

func privateKeyLedgerKey(key string) []byte {
	return render.DeriveKey([]byte(key), "clarify ledger key v2")
}

// PrivateKeyEnv is the App's private key as the environment gives it: GITHUB_APP_PRIVATE_KEY
// itself, or the file GITHUB_APP_PRIVATE_KEY_FILE names, one setting spelt two ways. Both
// set is an error; the key is then the one given.
func PrivateKeyEnv() (key, file string, err error) {
	key, file = os.Getenv("GITHUB_APP_PRIVATE_KEY"), os.Getenv("GITHUB_APP_PRIVATE_KEY_FILE")
	if key != "" && file != "" {
		return key, "", errors.New("GITHUB_APP_PRIVATE_KEY and GITHUB_APP_PRIVATE_KEY_FILE are both set: keep one")
	}
	return key, file, nil
}

// ReadPrivateKey reads a private key file: one that cannot be read or is empty is an
// error, never "no key", or a ledger would be read unchecked when it was meant checked.
func ReadPrivateKey(file string) (string, error) {
	b, err := os.ReadFile(file)
	switch {
	case err != nil:
		return "", err
	case len(bytes.TrimSpace(b)) == 0:
		return "", ErrEmptyKeyFile
	}
	return string(b), nil
}

// ErrEmptyKeyFile says a private key file holds nothing but space.
var ErrEmptyKeyFile = errors.New("the private key file is empty")

// UnescapePEM turns a PEM whose line breaks arrived as literal \n (a common way to squeeze
// a key into one environment variable) back into the PEM GitHub issued, so that it parses.
func UnescapePEM(k string) string {
	if !strings.Contains(k, "\n") && strings.Contains(k, `\n`) && strings.Contains(k, "-----BEGIN") {
		return strings.ReplaceAll(k, `\n`, "\n")
	}
	return k
}

// KeyringFromEnv is the keyring serve checks ledgers with, drawn from the environment as
// serve draws it (CLARIFY_LEDGER_KEY, else the private key), with flagKey, when given, as
// the current key: what bot ledger and the asker's client verify (and bot ledger signs)
// with. No key at all is an empty ring.
func KeyringFromEnv(flagKey string) (render.Keyring, error) {
	s := KeySource{LedgerKey: os.Getenv("CLARIFY_LEDGER_KEY"), WebhookSecret: os.Getenv("GITHUB_APP_WEBHOOK_SECRET")}
	key, file, _ := PrivateKeyEnv() // both set: the key, as serve reads it before refusing to start
	s.PrivateKey = key
	if file != "" {
		var err error
		if s.PrivateKey, err = ReadPrivateKey(file); err != nil && flagKey == "" && s.LedgerKey == "" {
			// A key file named but unreadable must not turn into "no key": the ledger would be
			// read unchecked when the operator meant it checked.
			return render.Keyring{}, fmt.Errorf("GITHUB_APP_PRIVATE_KEY_FILE %q could not be read, or is empty", file)
		}
	}
	s.PrivateKey = UnescapePEM(s.PrivateKey)
	if flagKey != "" {
		s.LedgerKey = flagKey
	}
	if s.LedgerKey == "" && strings.TrimSpace(s.PrivateKey) == "" {
		return render.Keyring{}, nil
	}
	return render.Keyring{Current: s.Current(), Previous: s.PreviousKeys()}, nil
}
