// Package ghtransport is how the app talks HTTP to GitHub: the middleware of its clients
// (internal/app builds the App's client factory from it), retries of transient faults,
// the pacer that keeps each installation under GitHub's secondary limits, the one reading
// of GitHub's rate-limit signals (ReadLimit) and the one hold it leads to, request
// counting for the sweep's budget, and pagination (AllPages). It knows nothing of issues
// or ledgers, and links none of go-githubapp, so the asker's client can use it too.
//
// The pacer's rule (PaceStore keeps it): GitHub counts a write when it arrives, which is
// somewhere between the moment the pacer let it go and the moment its answer came back.
// So a write holds its place in its installation's window from when it is let go until a
// window after its answer, without end while it is on its way, and a write goes only when
// fewer than the limit hold a place. Any writes GitHub could count within one of its
// windows all held a place when the last of them left (each left no later, and its answer
// came after its arrival, less than a window before the last one's), so GitHub never
// sees more than the limit, however long each took. A secondary-limit refusal that comes
// all the same strikes the installation (strike.go): its writes are paced at bounds halved
// down to a quarter, one strike forgotten each ten quiet minutes, and it holds for the wait
// GitHub named, or where it named none a minute doubling to five.
package ghtransport
