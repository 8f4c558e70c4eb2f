// Package readcmd holds the read-only commands for people, `ledger` (an issue's ledger; for
// bot also a status comment's body, and AgentX ledger files) and `stats` (a repository's
// digest), once for bot and gh clarify: a Reach says how each reaches GitHub and whom it
// believes. They read through the app's one reader (ledger.PeopleReader) and never write
// to GitHub. It links nothing of the server's, so that gh clarify can run them.
package readcmd
