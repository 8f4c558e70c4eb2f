// Package fakegithub is an in-memory GitHub for tests and for `bot replay`.
//
// A *Server is an http.Handler that serves, at its root, the REST subset
// Clarify uses, the way api.github.com does: status codes, error bodies
// ({"message", "errors", "documentation_url", "status"}), pagination with
// Link headers, weak ETags answered with 304 on If-None-Match, rate-limit
// headers, and the 65,536-character limit on comment bodies. Point the
// client creator's v3 API URL at it (e.g. httptest's URL plus "/") and the
// real go-githubapp/ghinstallation clients work unchanged: an App JWT buys an
// installation token at POST /app/installations/{id}/access_tokens, and that
// token reaches only the repositories of its installation (others are 404).
//
// Contract:
//   - Every request is logged (Requests, Summary). A request that matches no
//     route answers 404 and is logged with Unhandled set, so a test can assert
//     the app called nothing the fake does not model.
//   - Writes made with an installation token are the app's: comments are
//     authored by AppSlug+"[bot]" and carry performed_via_github_app, and the
//     issue_comment deliveries GitHub would send back for them wait in the
//     outbox (TakeOutbox). A person's comment made through another App
//     (CommentThroughApp) carries performed_via_github_app naming that App;
//     any other comment carries null.
//   - Faults are injected per route template (FailNext, FailNextAfterApply)
//     and latency per request (SetLatency).
//   - Scripted actions (OpenIssue, Comment, EditComment, …) change the state
//     and return the webhook delivery GitHub would send, in GitHub's payload
//     shape, built from the issue as it is at that moment. Send or Deliver
//     signs and posts it (X-Hub-Signature-256 and X-Hub-Signature).
//   - Timestamps come from the Server's clock, a virtual clock by default
//     that only Advance moves. Authentication is the exception: JWT and token
//     expiry run on the wall clock, because ghinstallation signs and refreshes
//     on the wall clock.
//   - Ids are deterministic: comment ids grow by one across the Server from
//     FirstCommentID; other ids derive from names. Fingerprint and Transcript
//     are therefore stable enough for golden files.
//
// # Scenario scripts
//
// ParseScenario reads a script of user actions and Run performs one step at a
// time, returning the deliveries to send. One action per line; blank lines
// and lines starting with '#' are ignored. Lines without free text (repo, user,
// bot, team, issue, deletes, close, reopen, wait) may end in a "# comment"
// (a '#' after a space and before a space); comment and edit lines take the
// rest of the line verbatim as the body, and expect lines as the check.
//
//	repo octo/widgets                      # the repository later lines act on (default octo/widgets)
//	user alice write                       # a person and her role: admin|maintain|write|triage|read|none (optional)
//	bot coder-agent                        # a bot account (type Bot), optionally with a role
//	team octo/maintainers alice bob        # active members of a team
//	file .github/clarify.yml:              # a file in the repository: the indented block
//	  sla: 30m
//	issue #42 "Pick a timezone" by alice   # opens issue 42 (end in ':' for an indented description)
//	# a one-line comment: everything after "#42:" is the body, '#' included
//	alice comments on #42: Which timezone?
//	# a multi-line comment: the body is the following lines, indented by two spaces
//	alice comments on #42:
//	  /clarify @bob --non-blocking Which timezone?
//	  Options:
//	  a) UTC
//	# her, his, their or its; an edit takes a block too
//	alice edits her last comment on #42: new text
//	alice deletes her last comment on #42
//	close #42 by alice
//	reopen #42 by alice
//	wait 31m                               # a Go duration: advances the clock
//	# a check about issue 42, or about a clarification of it; the rest of the line is the check
//	expect #42 labels clarification:active
//	expect CLR-42-001 stale
//
// A body block is every following line indented by (at least) two spaces,
// with those two spaces removed; blank lines between indented lines belong to
// the body. The repository is created on first use: in the installation of
// its owner's account if there is one, else in installation 1 (created when
// missing).
//
// An expect step is for the player of the scenario (internal/replay, which
// documents the checks it makes) to check once every line above it has run;
// Run does nothing for it.
package fakegithub
