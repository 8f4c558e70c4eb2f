package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// IssueLedgerKey is the key that signs the ledger of one issue, derived from the app's
// ledger key: a status body pasted from another issue, or another repository, does not
// verify, so it is rebuilt rather than trusted.
func IssueLedgerKey(key []byte, owner, repo string, number int) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("clarify issue ledger v2\x00" + strings.ToLower(owner+"/"+repo) + "#" + strconv.Itoa(number)))
	return m.Sum(nil)
}

func (b *Base) issueKey(ref issueRef) []byte {
	return IssueLedgerKey(b.LedgerKey, ref.Owner, ref.Repo, ref.Number)
}

// decodeLedger verifies and decodes the ledger in a status comment of the issue: under the
// issue's key, else under a previous ledger key's (a key rotation posts no rebuild notice),
// else, for ledgers written before keys were bound to their issue, under a plain key when
// the ledger names this issue. The next save signs it with the issue's key.
func (b *Base) decodeLedger(ref issueRef, body string) (clarify.Ledger, error) {
	return verifyUnder(b, ref, func(key []byte) (clarify.Ledger, error) { return render.DecodeLedger(body, key) })
}

// decodeArchive is decodeLedger for an archive comment.
func (b *Base) decodeArchive(ref issueRef, body string) (clarify.Ledger, error) {
	return verifyUnder(b, ref, func(key []byte) (clarify.Ledger, error) { return render.DecodeArchive(body, key) })
}

func verifyUnder(b *Base, ref issueRef, decode func(key []byte) (clarify.Ledger, error)) (clarify.Ledger, error) {
	l, first := decode(b.issueKey(ref))
	if first == nil || errors.Is(first, render.ErrVersion) {
		return l, first
	}
	for _, prev := range b.PreviousKeys {
		if l, err := decode(IssueLedgerKey(prev, ref.Owner, ref.Repo, ref.Number)); err == nil {
			return l, nil
		}
	}
	for _, plain := range append([][]byte{b.LedgerKey}, b.PreviousKeys...) {
		if l, err := decode(plain); err == nil && l.Issue == ref.Number {
			return l, nil
		}
	}
	return clarify.Ledger{}, first
}
