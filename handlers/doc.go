// Package handlers reconciles GitHub issues to their clarification ledgers: the webhook
// handlers and the run of one issue. The domain is clarify's, the Markdown render's.
//
// Errors from GitHub or Redis are wrapped with %w and returned, so a failed delivery shows
// as failed. A user's mistake is a refusal comment, and the handler returns nil.
//
// # The rooms beside this one
//
//   - delivery: deliveries scheduled, claimed once, retried, redelivered.
//   - sweep: time acting on quiet issues (the App's sweep, a workflow's scheduled run).
//   - checks: the check runs of the pull requests that link an issue.
//   - labels: the app's three labels on an issue.
//   - appissues: the app's own issues (the labels naming them, the dashboard).
//   - relations: blocking clarifications in GitHub's own model (relations:), their
//     decision issues and edges; relating.go is the run's call to it.
//   - internal/ghtransport: talking HTTP to GitHub (retries, pacing, pagination).
//
// # Webhooks
//
//   - issue_comment.go, issues.go, dispatch.go, pull_request.go, relation_events.go: one
//     handler per event (relation_events.go: issue_dependencies and sub_issues).
//   - active.go: the issues with something open, for the cheap filters.
//
// # One run of an issue (run.go, in its numbered stages)
//
//  1. snapshot.go: the comments and the ledger (cache.go spares what this process read,
//     window.go what a long issue's last minutes hold); archive.go, ledger_trust.go, then
//     config.go and hints.go.
//  2. fold.go: what is new, then time, through clarify.Apply; actors.go says who is who.
//  3. labelling.go: the labels, put on before anything is posted.
//  4. effects.go, post.go: what the fold asks for, each posted once; decisions*.go: the
//     repository's decision memory (offers, precedents, supersede); relating.go: the
//     decision issues and edges of relations:.
//  5. save.go: the status comment with the signed ledger; guard.go: the read-backs of a
//     run that may share its issue (Mode).
//  6. wake.go: a repository_dispatch for each clarification settled, then labels off.
//
// # What a run stands on
//
//   - base.go: Base, what every handler shares; mode.go: lone server, replicas or workflow
//     run; identity.go: the app's account and keys, and which comments are its own.
//   - locks.go, index.go: the per-issue lock, the deadline index.
//   - shared.go: the interfaces Redis implements (internal/redisstate).
//   - visit.go, sweepindex.go: what the sweeps ask of a run.
//
// # Where each rule lives
//
//   - Keys and the signed blocks: render (Keyring, codec.go); ledger.Reader reads a
//     ledger for the runs, bot ledger and the asker alike; ledger/trust.go trusts it.
//   - The app's own comments: ledger/own.go. From a shared account only a comment sealed
//     under the key is the app's (render/seal.go).
//   - Standing (whose word is a decision): clarify/permission.go; actors.go only reports
//     what GitHub says of an account.
//   - The asker's ref and state: clarify/asker.go; wire/dispatch.go decodes a dispatch.
//   - The app's own issues: ledger/appissues.go says when a label is followed.
//   - Pagination and rate limits: ghtransport.AllPages and ReadLimit.
//   - Caches: cache.go, one bounded cache for all a process remembers between runs.
package handlers
