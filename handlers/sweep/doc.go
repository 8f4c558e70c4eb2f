// Package sweep lets time act on issues nobody comments on, in both modes:
//
//   - installations.go: the App's sweep (Installations), every installation's due issues
//     from the deadline index, a slow walk for what the index cannot know, and deadlock
//     breaks.
//   - repository.go: a workflow's scheduled run (Repository), the sweep of its one
//     repository, kept between runs in its sweep index (handlers.SweepIndex).
//
// Each visit is one issue's run (handlers.Base.RunIssue, BreakDeadlock); what a run does is
// package handlers'.
package sweep
