// Package labels decides and sets the app's three labels on an issue (active, stale,
// escalated):
//
//   - which labels an issue should carry to match its ledger (Decide), and which of them
//     are the app's to take off;
//   - putting them on before a run posts (PutOn) and taking them off after its save
//     (TakeOff);
//   - which of them GitHub made grey on first use, for the sweeps to colour (Grey).
//
// What this process remembers setting is the caller's (Cache).
package labels
