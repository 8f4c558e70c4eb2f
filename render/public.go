package render

import (
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Where Clarify runs as a workflow, every workflow of the repository writes as
// github-actions[bot], and the ledger key that MACs the app's blocks is a secret those
// workflows may be handed: it can vouch for nothing to an asker, who must never hold it
// (an agent holding it could write "maria decided …" into the repository's memory). So
// there the app also signs each comment it writes with an Ed25519 key drawn from the
// ledger key, and askers verify with its public half, which the repository's
// .github/clarify.yml lists (verify_keys): only people with write access put it there.

// signingInfo labels the Ed25519 seed drawn from a ledger key, so that it is no other key
// drawn from the same secret.
const signingInfo = "clarify ed25519 comment signing v1"

// sigOpen opens a comment's signature, the last thing in its body:
// "<!-- clarify:sig ed25519 SIG -->", SIG base64url of the Ed25519 signature.
const sigOpen = "\n<!-- clarify:sig ed25519 "

// commentLabel opens what a comment's signature covers.
const commentLabel = "clarify comment v1\x00"

// VerifyKeyPrefix begins a public key as the config lists it: "ed25519:BASE64".
const VerifyKeyPrefix = "ed25519:"

// SigningKey is the Ed25519 key drawn from a ledger key (HKDF-SHA256 under a fixed label):
// the same secret gives the same key in every run, and its public half is all an asker
// needs.
func SigningKey(ledgerKey []byte) (ed25519.PrivateKey, error) {
	if len(ledgerKey) == 0 {
		return nil, errNoKey
	}
	seed, err := hkdf.Key(sha256.New, ledgerKey, nil, signingInfo, ed25519.SeedSize)
	if err != nil {
		return nil, fmt.Errorf("render: draw the signing key: %w", err)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// FormatVerifyKey is pub as .github/clarify.yml lists it, "ed25519:BASE64".
func FormatVerifyKey(pub ed25519.PublicKey) string {
	return VerifyKeyPrefix + base64.StdEncoding.EncodeToString(pub)
}

// ParseVerifyKey reads a public key written as FormatVerifyKey writes it.
func ParseVerifyKey(s string) (ed25519.PublicKey, error) {
	enc, ok := strings.CutPrefix(s, VerifyKeyPrefix)
	if !ok {
		return nil, fmt.Errorf("%q does not begin with %s: write the line `bot key public` prints", s, VerifyKeyPrefix)
	}
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%q is not an Ed25519 public key (%d bytes, base64): write the line `bot key public` prints", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// signedText is what a comment's signature covers: the issue it is in (a signed comment
// copied into another issue does not verify there) and its body before the signature, with
// "\r\n" read as "\n" (an edit in GitHub's web page writes "\r\n").
func signedText(owner, repo string, number int, body string) []byte {
	return []byte(commentLabel + strings.ToLower(owner+"/"+repo) + "#" + strconv.Itoa(number) + "\x00" +
		strings.ReplaceAll(body, "\r\n", "\n"))
}

// SignComment returns body with its signature under key appended: what the app writes as
// a comment of issue number where its account is shared. Ed25519 signs deterministically,
// so the same body signs the same, and the app still tells an unchanged comment by its body.
// A nil key returns body as it is.
func SignComment(key ed25519.PrivateKey, owner, repo string, number int, body string) string {
	if key == nil {
		return body
	}
	body = Unsigned(body)
	sig := ed25519.Sign(key, signedText(owner, repo, number, body))
	return body + sigOpen + b64url.EncodeToString(sig) + " -->"
}

// Unsigned is body without the signature SignComment appended, if it has one.
func Unsigned(body string) string {
	if i := strings.LastIndex(body, sigOpen); i >= 0 && strings.HasSuffix(body, " -->") && !strings.Contains(body[i+len(sigOpen):], "\n") {
		return body[:i]
	}
	return body
}

// VerifyKeys are the public keys an asker believes the app's workflow by: those the
// repository's config lists (old and new while a rotation's comments remain).
type VerifyKeys []ed25519.PublicKey

// Signed reports whether body, a comment of issue number, ends with a signature of its
// text under one of the keys: written by the app as it is now.
func (v VerifyKeys) Signed(owner, repo string, number int, body string) bool {
	i := strings.LastIndex(body, sigOpen)
	if i < 0 || !strings.HasSuffix(body, " -->") {
		return false
	}
	sig, err := b64url.DecodeString(strings.TrimSuffix(body[i+len(sigOpen):], " -->"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return false
	}
	msg := signedText(owner, repo, number, body[:i])
	for _, pub := range v {
		if ed25519.Verify(pub, msg, sig) {
			return true
		}
	}
	return false
}
