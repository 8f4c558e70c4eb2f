package labels

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/repoconfig"
)

func TestPlanLabelsTakesOffOnlyWhatTheAppPutOn(t *testing.T) {
	triage := Of(repoconfig.Labels{Active: repoconfig.DefaultLabelActive, Stale: "needs-triage", Escalated: repoconfig.DefaultLabelEscalated})
	ledger := func(status clarify.Status, recorded ...string) clarify.Ledger {
		l := clarify.NewLedger(42)
		if status != "" {
			l.Clarifications = []clarify.Clarification{{ID: "CLR-42-001", Status: status}}
		}
		l.Labels = recorded
		return l
	}
	tests := map[string]struct {
		ledger   clarify.Ledger
		on       []string // the payload's labels
		setSince []string // what this process last set
		// want: the labels added and removed, and the ledger's record after.
		add, remove, owned []string
	}{
		"peoplesLabelOnAnIssueWithoutClarificationsStays": {
			ledger: ledger(""), on: []string{"needs-triage"},
		},
		"peoplesLabelStaysWhenTheAppWouldWantItTooAndIsNotClaimed": {
			ledger: ledger(clarify.Stale), on: []string{"clarification:active", "needs-triage"},
		},
		"peoplesLabelStaysOnceNoLongerWanted": {
			ledger: ledger(clarify.Answered), on: []string{"clarification:active", "needs-triage"},
		},
		"theAppPutsItOnAndRecordsIt": {
			ledger: ledger(clarify.Stale), on: []string{"clarification:active"},
			add: []string{"needs-triage"}, owned: []string{"needs-triage"},
		},
		"recordedStaysRecordedWhileWanted": {
			ledger: ledger(clarify.Stale, "needs-triage"), on: []string{"clarification:active", "needs-triage"},
			owned: []string{"needs-triage"},
		},
		"recordedIsTakenOffEvenWhenThePayloadPredatesIt": {
			ledger: ledger(clarify.Answered, "needs-triage"), on: []string{"clarification:active"},
			remove: []string{"needs-triage"},
		},
		"setByThisProcessCountsWhenARebuildLostTheRecord": {
			ledger: ledger(clarify.Answered), on: []string{"clarification:active", "needs-triage"}, setSince: []string{"clarification:active", "needs-triage"},
			remove: []string{"needs-triage"},
		},
		"aDefaultNameIsTheAppsWherever": {
			ledger: ledger(clarify.Resolved), on: []string{"clarification:active"},
			remove: []string{"clarification:active"},
		},
		"aDefaultNameNotOnCostsNoWrite": {
			ledger: ledger(clarify.Resolved),
		},
		"namesCompareWithoutRegardToCase": {
			ledger: ledger(clarify.Stale), on: []string{"clarification:active", "Needs-Triage"},
		},
		"aRecordedNameTheRepositoryNoLongerUsesIsTakenOff": {
			ledger: ledger(clarify.Pending, "waiting"), on: []string{"clarification:active", "waiting"},
			remove: []string{"waiting"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mem := mapCache{}
			ref := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 42}
			mem.Put(ref.String(), tc.setSince)
			var on []*github.Label
			for _, n := range tc.on {
				on = append(on, &github.Label{Name: github.String(n)})
			}
			p := Decide(mem, ref, triage, on, tc.ledger)
			var add []string
			for _, lb := range p.Add {
				add = append(add, lb.Name)
			}
			got := fmt.Sprint(add, p.Remove, p.Owned)
			if want := fmt.Sprint(tc.add, tc.remove, tc.owned); got != want {
				t.Errorf("add, remove, owned = %s, want %s", got, want)
			}
			if slices.Contains(p.Set, "needs-triage") != slices.Contains(p.Owned, "needs-triage") {
				t.Errorf("remembered as set %v, but owned %v", p.Set, p.Owned)
			}
		})
	}
}

// mapCache is a Cache that remembers everything.
type mapCache map[string][]string

func (m mapCache) Known(issue string) ([]string, bool) {
	names, ok := m[issue]
	return names, ok
}

func (m mapCache) Put(issue string, names []string) { m[issue] = names }
