// Package render turns a clarify.Ledger into the Markdown users see (the status comment,
// one comment per question round, replies, escalations) and hides the ledger itself in
// the status comment as a signed, compressed block.
//
// Pure: no I/O, no clock, no GitHub types. Every function is deterministic, so the same
// ledger always renders the same bytes (golden files in testdata/golden pin them).
//
// Everything a user typed is treated as hostile when it is echoed: it can never open or
// close an HTML comment (so it can neither forge one of our hidden markers nor end the
// ledger block early), never break a table or a block quote, never @mention anyone and
// never create an issue cross-reference. The only live mentions render writes are the
// ones a caller asks for explicitly: the person a refusal answers, the maintainers an
// escalation names, and the people a round or a stale ping waits on (all come from the
// app and its configuration, never from what a user wrote).
//
// Every signed hidden block (the ledger, an archive, a dispatch mirror's copy, a part of a
// repository's decisions, the dashboard's state) is written and read here, under the keys a Keyring draws for its issue: which keys an issue trusts,
// and how a block is signed, is decided in this package only (keyring.go, codec.go; the
// decisions' and the dashboard's blocks use codec.go's sealing, in decisions.go). The
// markers that tell the app's comments apart (the status marker, each message's) are
// sealed under the same keys (seal.go): an account may be shared by others.
//
// Every message stays under MaxCommentBytes. The status comment is the one exception
// it cannot fix alone: it always carries the whole ledger block, so when the block
// itself is too large the caller must compact the ledger before saving.
package render
