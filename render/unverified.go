package render

import (
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// unverifiedKey re-signs a block that is read without its key. It signs nothing anyone
// trusts: the block is decoded and dropped in the same call.
var unverifiedKey = []byte("render: unverified read")

// DecodeLedgerUnverified reads the ledger block of a body as DecodeLedger does, without
// checking its MAC. It is for people reading a ledger without the app's key (`bot
// ledger`); the app itself must never act on what it returns, since anyone can write one.
func DecodeLedgerUnverified(body string) (clarify.Ledger, error) {
	return decodeUnverified(ledgerOpen, body)
}

// DecodeArchiveUnverified is DecodeLedgerUnverified for an archive comment's block.
func DecodeArchiveUnverified(body string) (clarify.Ledger, error) {
	return decodeUnverified(archiveOpen, body)
}

// decodeUnverified signs the block's data afresh under a throwaway key, then decodes it
// with decodeBlock, so that an unverified read takes the very same checks as a verified
// one (syntax, version, size, JSON) except the MAC. A block that cannot be taken apart is
// handed over as it is, for decodeBlock to name what is wrong with it.
func decodeUnverified(open, body string) (clarify.Ledger, error) {
	at := strings.LastIndex(body, open)
	if at < 0 {
		return decodeBlock(open, body, unverifiedKey)
	}
	rest := body[at+len(open):]
	end := strings.Index(rest, ledgerClose)
	if end < 0 {
		return decodeBlock(open, body, unverifiedKey)
	}
	fields := strings.Fields(rest[:end])
	if len(fields) != 2 || fields[0] != ledgerTag {
		return decodeBlock(open, body, unverifiedKey)
	}
	enc, _, ok := strings.Cut(fields[1], ".")
	if !ok {
		return decodeBlock(open, body, unverifiedKey)
	}
	data, err := b64.DecodeString(enc)
	if err != nil {
		return decodeBlock(open, body, unverifiedKey)
	}
	block := open + ledgerTag + " " + b64.EncodeToString(data) + "." +
		b64.EncodeToString(mac(open, unverifiedKey, data)) + " " + ledgerClose
	return decodeBlock(open, block, unverifiedKey)
}
