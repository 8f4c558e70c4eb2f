package handlers

import "sync"

// activeIssues remembers, within this process, the issues where the app has an ask in
// flight or an open clarification. The cheap filters read it beside the payload's labels:
// a reply or a close that GitHub delivers before the app has put its label on (seconds
// normally, minutes when writes are paced) must still reach the ledger.
type activeIssues struct {
	mu       sync.Mutex
	inFlight map[string]int  // deliveries accepted and not yet run to the end
	open     map[string]bool // issues whose last saved ledger holds an open clarification
}

// begin notes a delivery that may open a clarification; the returned function ends it.
func (a *activeIssues) begin(key string) (end func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.inFlight == nil {
		a.inFlight = map[string]int{}
	}
	a.inFlight[key]++
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.inFlight[key]--; a.inFlight[key] <= 0 {
			delete(a.inFlight, key)
		}
	}
}

// saved records whether the issue's ledger, as just saved, holds an open clarification.
// Runs of one issue are serialised, so the last save is the truth.
func (a *activeIssues) saved(key string, open bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !open {
		delete(a.open, key)
		return
	}
	if a.open == nil {
		a.open = map[string]bool{}
	}
	a.open[key] = true
}

// has reports whether the issue has an ask in flight or an open clarification.
func (a *activeIssues) has(key string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.inFlight[key] > 0 || a.open[key]
}
