package render

import (
	"errors"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// Keyring is the app's ledger keys: the current one, which signs, and the previous ones,
// which still verify after a rotation (a rotation posts no rebuild notice in every issue).
// Every signed block of an issue (ledger, archive, dispatch mirror) is signed and checked
// through it, so that which keys an issue trusts is decided here once.
type Keyring struct {
	// Current signs, through the key it draws for each issue.
	Current []byte
	// Previous only verify, never sign.
	Previous [][]byte
}

// Given reports whether the ring has a key at all; without one nothing is signed or trusted.
func (k Keyring) Given() bool { return len(k.Current) > 0 }

// DeriveKey draws a key for one purpose from a secret, so that one secret can key several
// things without one's MAC passing for another's.
func DeriveKey(secret []byte, purpose string) []byte {
	return sign(secret, []byte(purpose))
}

// IssueKey is the key that signs the blocks of one issue, drawn from a ledger key: a block
// pasted from another issue, or another repository, does not verify there.
func IssueKey(key []byte, owner, repo string, number int) []byte {
	return DeriveKey(key, "clarify issue ledger v2\x00"+strings.ToLower(owner+"/"+repo)+"#"+strconv.Itoa(number))
}

// Issue returns the keys of one issue.
func (k Keyring) Issue(owner, repo string, number int) IssueKeys {
	ik := IssueKeys{number: number}
	if !k.Given() {
		return ik
	}
	ik.plain = append([][]byte{k.Current}, k.Previous...)
	for _, key := range ik.plain {
		ik.bound = append(ik.bound, IssueKey(key, owner, repo, number))
	}
	return ik
}

// IssueKeys are the keys of one issue: those drawn for it from each key of the ring (the
// first signs), and the ring's plain keys, which verified ledgers before keys were bound
// to their issue.
type IssueKeys struct {
	bound, plain [][]byte
	number       int
}

// Signing is the key that signs the issue's blocks; nil when the ring has none, which
// every encoder refuses.
func (k IssueKeys) Signing() []byte {
	if len(k.bound) == 0 {
		return nil
	}
	return k.bound[0]
}

// EncodeLedger is EncodeLedger under the issue's signing key.
func (k IssueKeys) EncodeLedger(l clarify.Ledger) (string, error) {
	return EncodeLedger(l, k.Signing())
}

// EncodeArchive is EncodeArchive under the issue's signing key.
func (k IssueKeys) EncodeArchive(l clarify.Ledger) (string, error) {
	return EncodeArchive(l, k.Signing())
}

// DecodeLedger verifies and decodes the ledger in a status comment of the issue.
func (k IssueKeys) DecodeLedger(body string) (clarify.Ledger, error) {
	return k.Decode(body, DecodeLedger)
}

// DecodeArchive verifies and decodes the block of one of the issue's archive comments.
func (k IssueKeys) DecodeArchive(body string) (clarify.Ledger, error) {
	return k.Decode(body, DecodeArchive)
}

// Decode reads a ledger-shaped block with decode: under the issue's current key, else
// under a previous key's (a rotation), else, for ledgers written before keys were bound to
// their issue, under a plain key when the ledger names this issue. The next save signs it
// with the issue's current key. A block of a version this code does not read fails at once:
// no other key would make it readable. The error is the current key's, the one that matters.
func (k IssueKeys) Decode(body string, decode func(body string, key []byte) (clarify.Ledger, error)) (clarify.Ledger, error) {
	l, first := decode(body, k.Signing())
	if first == nil || errors.Is(first, ErrVersion) || len(k.bound) == 0 {
		return l, first
	}
	for _, key := range k.bound[1:] {
		if l, err := decode(body, key); err == nil {
			return l, nil
		}
	}
	for _, key := range k.plain {
		if l, err := decode(body, key); err == nil && l.Issue == k.number {
			return l, nil
		}
	}
	return clarify.Ledger{}, first
}

// verifies reports whether sum is the MAC of the parts under one of the issue's bound
// keys. Plain keys are left out: a block that names no issue cannot prove it is this one's.
func (k IssueKeys) verifies(sum []byte, parts ...[]byte) bool {
	for _, key := range k.bound {
		if macEqual(sum, sign(key, parts...)) {
			return true
		}
	}
	return false
}

// DecodeUnbound reads a ledger whose issue is not known: only the ring's plain keys can be
// tried, which signed ledgers before keys were bound to their issue. Failing, it returns
// the current key's error.
func (k Keyring) DecodeUnbound(body string) (clarify.Ledger, error) {
	for _, key := range append([][]byte{k.Current}, k.Previous...) {
		if l, err := DecodeLedger(body, key); err == nil || errors.Is(err, ErrVersion) {
			return l, err
		}
	}
	_, err := DecodeLedger(body, k.Current)
	return clarify.Ledger{}, err
}
