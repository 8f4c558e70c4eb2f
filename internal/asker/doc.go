// Package asker is the asker's client: what an agent needs to ask Clarify a question from
// wherever it runs and get the answer back as data. It asks (a comment with the caller's
// own token, or a repository_dispatch where a comment would start no run), learns the
// clarification's id (by the ask's comment, or, for a dispatch, by its nonce;
// every ask carries a ref too),
// waits with conditional reads at nearly no cost against the rate limit, settles the
// clarification (resolve, follow up, abandon: settle.go), and reads an issue's
// clarifications and the repository's decisions in force.
//
// Three doors call it and nothing else, so they cannot drift apart:
// `bot ask|wait|status|resolve|followup|abandon` (commands.go, settle_cli.go), the
// `gh clarify` extension (cmd/gh-clarify) and `bot mcp` (internal/askmcp). Both programs
// list the same rows for these commands (Commands), and gh clarify reads ledgers and
// digests through the client's trust (Door.Reach, internal/readcmd).
//
// What it believes: a clarification's record comes only from the app's signed ledger, read
// by the one reader the app uses (ledger.Reader) from the comments of the account
// Clarify runs as in the repository (Options.Slug: "<slug>[bot]"). Where that account is
// shared (Action mode: github-actions[bot], which every workflow of the repository writes
// as), a comment counts only with the app's MAC, so the client needs the ledger key and
// refuses to start without it. A refusal is read only from the app's account's comments:
// the app's reply to the ask's comment, or a refusal record naming the ask's nonce.
//
// Two rules answer for every door what the ledger does not show: absent (status.go) tells
// an id or a ref that an ask Clarify has not taken yet may become (a posted record,
// ErrNotTaken) from one that nothing can become (unknown-clarification); unverifiable
// (account.go) names the blocks claiming to be Clarify's that the client cannot verify,
// with the fix (cannot-verify, ExitCannotVerify).
package asker
