// Package replay plays scenarios and recorded deliveries through the real app against the
// in-memory GitHub: `bot replay` and the end-to-end tests both drive the app through it.
//
// A Harness is a whole world on loopback: internal/fakegithub behind httptest, and the app
// that internal/app assembles (real dispatcher, real client creator, real webhook
// signatures) pointed at it, on the fake's virtual clock. Deliver sends one signed
// delivery and returns once the app has handled it and ignored the deliveries of its own
// writes, so a caller sees the world as GitHub would after each event; Sweep runs one
// sweep the same way.
//
// PlayScenario plays a scenario script (format in internal/fakegithub/doc.go) and makes
// its `expect` checks when it reaches them; check documents the checks.
package replay
