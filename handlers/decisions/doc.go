// Package decisions is the repository's decision memory: the decisions people with
// standing made, kept in comments of one closed issue of the app's that a label names
// (docs/decisions.md), and what a run does with them.
//
// It owns:
//   - decisions.go: reading the memory for an offer, recording decisions under the
//     repository's lock, writing its parts and index, making its issue; the offers of
//     earlier decisions to new questions, the settlements from precedent, supersede.
//   - inherit.go: an organisation's decisions inherited (docs/organisations.md).
//   - pending.go: the decisions waiting for the memory's next write (a lone server that
//     sweeps), and Flush.
//   - owed.go: the repair of decisions a process before this one left owed.
//   - read.go: the read through the label, and the index.
//
// It reaches the process through Host and a run through Run, both small interfaces that
// package handlers implements; it keeps no state of its own beyond Pending. Errors from
// GitHub are wrapped with %w and returned; an offer is advice, so a memory that cannot be
// read holds no question up.
package decisions
