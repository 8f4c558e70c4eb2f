package handlers

// activeIssues remembers, within this process, the issues where the app has an ask in
// flight or an open clarification. The cheap filters read it beside the payload's labels:
// a reply or a close that GitHub delivers before the app has put its label on (seconds
// normally, minutes when writes are paced) must still reach the ledger.
type activeIssues struct {
	inFlight cache[int]  // deliveries accepted and not yet run to the end
	open     cache[bool] // issues whose last saved ledger holds an open clarification
}

// begin notes a delivery that may open a clarification; the returned function ends it.
func (a *activeIssues) begin(key string) (end func()) {
	a.inFlight.update(key, func(n int) int { return n + 1 })
	return func() {
		a.inFlight.change(key, func(n int) (int, bool) { return n - 1, n > 1 })
	}
}

// saved records whether the issue's ledger, as just saved, holds an open clarification.
// Runs of one issue are serialised, so the last save is the truth.
func (a *activeIssues) saved(key string, open bool) {
	if !open {
		a.open.forget(key)
		return
	}
	a.open.put(key, true)
}

// has reports whether the issue has an ask in flight or an open clarification.
func (a *activeIssues) has(key string) bool {
	n, _ := a.inFlight.get(key)
	open, _ := a.open.get(key)
	return n > 0 || open
}
