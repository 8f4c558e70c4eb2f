// Package ghtransport is how the app talks HTTP to GitHub: the middleware of its clients
// (internal/app builds the App's client factory from it), retries of transient faults,
// the pacer that keeps each installation under GitHub's secondary limits, the one reading
// of GitHub's rate-limit signals (ReadLimit) and the one hold it leads to, request
// counting for the sweep's budget, and pagination (AllPages). It knows nothing of issues
// or ledgers, and links none of go-githubapp, so the asker's client can use it too.
package ghtransport
