// Package handlers holds Clarify's go-githubapp event handlers and everything that talks to
// GitHub on their behalf: loading an issue's snapshot (comments, the ledger hidden in the
// app's status comment, permissions), folding events into the ledger through clarify.Apply,
// and reconciling the issue to the result (round comments posted once each, the status
// comment upserted, labels set to match).
//
// Infrastructure errors are wrapped with %w and returned, so a failed delivery shows as
// failed; a user's mistake is a refusal comment and the handler returns nil.
package handlers
