// Package clarify is the domain of the clarification protocol: its types, the state machine,
// the policy that shapes it and the command parser.
//
// Contract: pure. No I/O, no clock (time comes in as a value), no GitHub types. Apply is a
// function of (ledger, event, policy, now) and returns the new ledger and the effects to carry
// out as data; the handlers package does the talking to GitHub.
package clarify
