// Package appissues keeps the app's own issues of a repository:
//
//   - appissues.go: the label that names each one (the decision memory, the dashboard),
//     and the one rule of when the app follows a label: only to an issue provably its own.
//   - dashboard.go: the dashboard issue, written once per repository by the sweeps from
//     what the runs noted.
//
// What the decision memory holds is package decisions' (handlers/decisions) and ledger's.
package appissues
