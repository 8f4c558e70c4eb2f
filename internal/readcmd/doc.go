// Package readcmd holds bot's read-only commands for people: `bot ledger` (read an issue's
// ledger through the API or from a file, and export it to or import it from an AgentX
// ledger file) and `bot stats` (a repository's digest). They read through the handlers'
// one reader (ledger.PeopleReader) and never write to GitHub; cmd/bot only wires them.
package readcmd
