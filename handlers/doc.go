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
//   - decisions: the repository's decision memory (offers, precedents, supersede,
//     inherited decisions); memory.go is the run's call to it.
//   - relations: blocking clarifications in GitHub's own model (relations:), their
//     decision issues and edges; relating.go is the run's call to it.
//   - internal/ghtransport: talking HTTP to GitHub (retries, pacing, pagination).
//
// # Webhooks
//
//   - issue_comment.go, issues.go, dispatch.go, pull_request.go, relation_events.go: one
//     handler per event, decoding and cheap filters, then Base.run (relation_events.go:
//     issue_dependencies and sub_issues).
//   - active.go: the issues with something open, for the cheap filters.
//
// # One run of an issue
//
// Base.run makes one issueRun (snapshot.go) per run of one issue: the client, the issue,
// the trigger, and, as the stages go, the config, the snapshot (what was read), the fold
// and the run's own state (its posts, mirrors, offers, label plan, memory writes). The
// stages are its methods; each takes ctx and what is truly per call (run.go, stages):
//
//  1. loadIssue: the comments and the ledger (snapshot.go; cache.go spares what this
//     process read, window.go what a long issue's last minutes hold; archive.go,
//     ledger_trust.go), then the config (config.go, hints.go).
//  2. foldIssue: a dispatch's command mirrored first (mirror.go), then what is new and
//     time, through clarify.Apply (fold.go; actors.go says who is who), then what
//     precedent settles and the offers (precedentsAndOffers, memory.go).
//  3. labelsToSave (labelling.go): the labels, put on before anything is posted.
//  4. report, carryOut (effects.go, post.go): what the fold asks for, each posted once;
//     rememberOffersAndDecisions (memory.go): the repository's decision memory, package
//     decisions; relate (relating.go): the decision issues and edges of relations:;
//     checkPullRequests (checking.go); noteHints (hints.go).
//  5. save (save.go): the status comment with the signed ledger; checkMemoryWrites
//     (guard.go): the read-backs of a run that may share its issue (Mode); noteSaved.
//  6. afterSave: wake (wake.go), a repository_dispatch for each clarification settled,
//     then the labels off and the index entry.
//
// A workflow's mirror-only job (Mode) runs loadIssue and the dispatch's mirror alone
// (mirror.go).
//
// # What a run stands on
//
//   - base.go: Base, what every handler shares, built once from Options; mode.go: lone
//     server, replicas or workflow run; identity.go: the app's account and keys, and
//     which comments are its own.
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
