// Package ghtransport is how the app talks HTTP to GitHub: the client factory, retries
// of transient faults, the pacer that keeps each installation under GitHub's secondary
// limits, the one reading of GitHub's rate-limit signals (ReadLimit) and the one hold it
// leads to, request counting for the sweep's budget, and pagination (AllPages). It knows
// nothing of issues or ledgers; handlers/ reconciles issues through the clients it builds.
package ghtransport
