// Package agentx reads and writes AgentX's clarification ledger files
// (`.agentx/state/clarifications/issue-N.json`, defined by the AgentX clarification
// protocol PRD, seed 002), and converts them to and from Clarify's ledger.
//
// Every field the AgentX format defines maps onto a field of clarify.Ledger, so a file
// survives ToLedger then FromLedger unchanged. What Clarify keeps and AgentX has no field
// for (comment ids, options, the assumption log, the ledger's cursor and revision…) rides
// in an object of Clarify's own, "clarify", at each level of the file; AgentX readers
// ignore it, and FromLedger leaves it out where it would hold nothing, so a file AgentX
// wrote gains nothing it did not have.
//
// Pure except WriteFile, which takes AgentX's lock file (`issue-N.json.lock`) around the
// write as AgentX's own writers do.
package agentx
