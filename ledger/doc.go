// Package ledger is the read side of Clarify's record, shared by the app's runs (handlers/),
// bot ledger and bot stats (internal/readcmd) and the asker's client (internal/asker,
// gh clarify): reading an issue's ledger from its comments (Reader: the status
// comment, its archives, the trust a verified ledger is held to), which comments are the
// app's own (own.go), reading a repository's decisions (decisions.go, appissues.go), the
// readers for people (PeopleReader), the app's login and the keys an issue's blocks are
// signed with (keys.go, keyring.go: drawn from the settings or the environment). It
// writes nothing, and links none of the server's stack, so a client can read as the app does.
package ledger
