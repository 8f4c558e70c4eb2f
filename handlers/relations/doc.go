// Package relations shows a repository's blocking clarifications in GitHub's own model
// (relations: in .github/clarify.yml; docs/organisations.md#relations): for each, a
// decision issue that the work issue is blocked by (relations: blocked-by) or that is its
// sub-issue (relations: sub-issue), taken off and closed with the decision once the
// clarification settles.
//
//   - keep.go: Keep brings an issue's decision issues and edges in line with its folded
//     ledger, before the save that records them (clarify.Ledger.Relations): a run never
//     opens a second decision issue, finds one it opened but did not record, and leaves no
//     edge behind a settled clarification.
//   - edges.go: GitHub's routes for issue dependencies and sub-issues, which take an
//     issue's database id rather than its number. go-github v60 has no methods for them,
//     so they go through the client's own requests (NewRequest, Do), with its transport's
//     retries, pacing and counting.
//
// Where GitHub has no such routes (a GitHub Enterprise Server without them answers 404),
// the clarification goes on without: one warning, recorded in the ledger so it is not
// tried again.
package relations
