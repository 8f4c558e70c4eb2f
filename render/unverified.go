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

// DecodeDecisionsUnverified reads a part of the decision memory as DecodeDecisions does,
// without checking its MAC: for people's tools given no key (bot stats, the asker's
// clarify_decisions), which read only the app's own account's comments.
func DecodeDecisionsUnverified(body string) (part int, ds []clarify.Decision, err error) {
	return DecodeDecisions(resigned(decisionsOpen, body), unverifiedKey)
}

// decodeUnverified decodes a ledger block with decodeBlock after resigned, so that an
// unverified read takes the very same checks as a verified one (syntax, version, size,
// JSON) except the MAC.
func decodeUnverified(open, body string) (clarify.Ledger, error) {
	return decodeBlock(open, resigned(open, body), unverifiedKey)
}

// resigned is the last block that open starts in body, its data signed afresh under a
// throwaway key. A block that cannot be taken apart is handed over as it is, for the
// decoder to name what is wrong with it.
func resigned(open, body string) string {
	at := strings.LastIndex(body, open)
	if at < 0 {
		return body
	}
	rest := body[at+len(open):]
	end := strings.Index(rest, ledgerClose)
	if end < 0 {
		return body
	}
	fields := strings.Fields(rest[:end])
	if len(fields) != 2 || fields[0] != ledgerTag {
		return body
	}
	enc, _, ok := strings.Cut(fields[1], ".")
	if !ok {
		return body
	}
	data, err := b64.DecodeString(enc)
	if err != nil {
		return body
	}
	return open + ledgerTag + " " + b64.EncodeToString(data) + "." + b64.EncodeToString(mac(open, unverifiedKey, data)) + " " + ledgerClose
}
