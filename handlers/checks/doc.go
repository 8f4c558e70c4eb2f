// Package checks writes the check runs of the pull requests that link an issue:
//
//   - checks.go: one check run per linked issue, failing while it holds an open blocking
//     clarification; which pull requests link an issue (GitHub's closing keywords).
//   - outsider.go: an outsider's pull request gets one check run for all its links.
//   - pulllinks.go: a lone server remembers which issues open pull requests link, so an
//     issue none links costs no listing.
//
// What an issue's ledger says comes from package handlers (IssueView); the pull_request
// webhook is handlers.PullRequest.
package checks
