package clarify

import (
	"fmt"
	"reflect"
	"testing"
)

// deadlockPolicy has three roles, one login each, in the default priority.
func deadlockPolicy() Policy {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"product-manager": {"pat"}, "architect": {"bob"}, "engineer": {"alice", "erin"}}
	return p
}

// waitEdge is one clarification of a deadlock test: in issue, the seq-th, asker waits on target.
type waitEdge struct {
	issue, seq int
	asker      Party
	target     Target
	status     Status // Pending when empty
	nonBlock   bool
}

var (
	pmParty   = Party{Login: "pat", Role: "product-manager"}
	archParty = Party{Login: "bob", Role: "architect"}
	engParty  = Party{Login: "alice", Role: "engineer"}
	toPM      = Target{Kind: TargetRole, Name: "product-manager"}
	toArch    = Target{Kind: TargetRole, Name: "architect"}
	toEng     = Target{Kind: TargetRole, Name: "engineer"}
)

// ledgers groups waits into one ledger per issue, in issue order.
func waitLedgers(ws ...waitEdge) []Ledger {
	byIssue := map[int]*Ledger{}
	var order []int
	for _, w := range ws {
		l, ok := byIssue[w.issue]
		if !ok {
			nl := NewLedger(w.issue)
			l = &nl
			byIssue[w.issue] = l
			order = append(order, w.issue)
		}
		status := w.status
		if status == "" {
			status = Pending
		}
		l.Clarifications = append(l.Clarifications, Clarification{ID: FormatID(w.issue, w.seq), Asker: w.asker,
			Target: w.target, Blocking: !w.nonBlock, Status: status, Round: 1, MaxRounds: 5})
	}
	var out []Ledger
	for _, i := range order {
		out = append(out, *byIssue[i])
	}
	return out
}

func TestBreaks(t *testing.T) {
	cases := map[string]struct {
		waits []waitEdge
		want  []Break
	}{
		"twoRolesAcrossTwoIssuesEscalateTheEngineer": {
			waits: []waitEdge{{issue: 1, seq: 1, asker: engParty, target: toArch}, {issue: 2, seq: 1, asker: archParty, target: toEng}},
			want:  []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}}},
		},
		"twoRolesInOneIssue": {
			waits: []waitEdge{{issue: 5, seq: 1, asker: archParty, target: toEng}, {issue: 5, seq: 2, asker: engParty, target: toArch}},
			want:  []Break{{Issue: 5, ID: "CLR-5-002", Cycle: []string{"engineer", "architect"}}},
		},
		"threeRoleCycle": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: pmParty, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
				{issue: 3, seq: 1, asker: engParty, target: toPM},
			},
			want: []Break{{Issue: 3, ID: "CLR-3-001", Cycle: []string{"engineer", "product-manager", "architect"}}},
		},
		"loginTargetsCountAsTheirRole": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: Target{Kind: TargetLogin, Name: "Bob"}},
				{issue: 2, seq: 1, asker: archParty, target: Target{Kind: TargetLogin, Name: "erin"}},
			},
			want: []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}}},
		},
		"askerWithoutRecordedRoleCountsAsItsRole": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: Party{Login: "erin"}, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
			},
			want: []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}}},
		},
		"loginsWithoutRolesAreUnlistedAndLowest": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: Party{Login: "zed"}, target: Target{Kind: TargetLogin, Name: "Bob"}},
				{issue: 2, seq: 1, asker: archParty, target: Target{Kind: TargetLogin, Name: "zed"}},
			},
			want: []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"zed", "architect"}}},
		},
		"teamsAreNodesOfTheirOwn": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: Party{Login: "qa-bot", Role: "@octo/qa"}, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: Target{Kind: TargetTeam, Name: "octo/qa"}},
			},
			want: []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"@octo/qa", "architect"}}},
		},
		"twoDisjointCycles": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
				{issue: 3, seq: 1, asker: Party{Login: "ann"}, target: Target{Kind: TargetLogin, Name: "ben"}},
				{issue: 4, seq: 1, asker: Party{Login: "ben"}, target: Target{Kind: TargetLogin, Name: "ann"}},
			},
			want: []Break{
				{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}},
				{Issue: 4, ID: "CLR-4-001", Cycle: []string{"ben", "ann"}},
			},
		},
		"oneEscalationBreaksTwoCyclesThroughIt": {
			// engParty → archParty is on both engParty ⇄ archParty and engParty → archParty → pmParty → engParty.
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
				{issue: 3, seq: 1, asker: archParty, target: toPM},
				{issue: 4, seq: 1, asker: pmParty, target: toEng},
			},
			want: []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}}},
		},
		"parallelEdgesAreEachEscalated": {
			// Escalating one of two engParty questions still leaves the other waiting on the archParty.
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
				{issue: 3, seq: 1, asker: Party{Login: "erin", Role: "engineer"}, target: toArch},
			},
			want: []Break{
				{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}},
				{Issue: 3, ID: "CLR-3-001", Cycle: []string{"engineer", "architect"}},
			},
		},
		"chainWithoutCycle": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch},
				{issue: 2, seq: 1, asker: archParty, target: toPM},
			},
		},
		"escalatedEdgeIsWithAHumanAlready": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch, status: Escalated},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
			},
		},
		"nonBlockingEdgeHoldsNobodyUp": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch, nonBlock: true},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
			},
		},
		"answeredEdgeWaitsOnItsOwnAsker": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch, status: Answered},
				{issue: 2, seq: 1, asker: archParty, target: toEng},
			},
		},
		"closedOnesAreNoEdges": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toArch, status: Resolved},
				{issue: 2, seq: 1, asker: archParty, target: toEng, status: Abandoned},
			},
		},
		"staleEdgeStillWaits": {
			waits: []waitEdge{{issue: 1, seq: 1, asker: engParty, target: toArch, status: Stale}, {issue: 2, seq: 1, asker: archParty, target: toEng}},
			want:  []Break{{Issue: 1, ID: "CLR-1-001", Cycle: []string{"engineer", "architect"}}},
		},
		"twoEngineersAreNoDeadlock": {
			waits: []waitEdge{
				{issue: 1, seq: 1, asker: engParty, target: toEng},
				{issue: 2, seq: 1, asker: Party{Login: "erin", Role: "engineer"}, target: Target{Kind: TargetLogin, Name: "alice"}},
			},
		},
		"tiesGoToTheHighestIssue": {
			// Neither login is in the priority: both lowest, so the newer issue's is escalated.
			waits: []waitEdge{
				{issue: 9, seq: 1, asker: Party{Login: "ann"}, target: Target{Kind: TargetLogin, Name: "ben"}},
				{issue: 12, seq: 1, asker: Party{Login: "ben"}, target: Target{Kind: TargetLogin, Name: "ann"}},
			},
			want: []Break{{Issue: 12, ID: "CLR-12-001", Cycle: []string{"ben", "ann"}}},
		},
		"tiesInOneIssueGoToTheHighestSequence": {
			waits: []waitEdge{
				{issue: 3, seq: 1000, asker: Party{Login: "ann"}, target: Target{Kind: TargetLogin, Name: "ben"}},
				{issue: 3, seq: 999, asker: Party{Login: "ben"}, target: Target{Kind: TargetLogin, Name: "ann"}},
			},
			want: []Break{{Issue: 3, ID: "CLR-3-1000", Cycle: []string{"ann", "ben"}}},
		},
		"empty": {},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ls := waitLedgers(tc.waits...)
			got := Breaks(ls, deadlockPolicy())
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Breaks = %+v\nwant %+v", got, tc.want)
			}
			// The sweep's index keeps each issue's edges apart, in no set order: the
			// same graph drawn one ledger at a time, last issue first, breaks the same.
			var edges []WaitFor
			for i := len(ls) - 1; i >= 0; i-- {
				edges = append(edges, WaitFors(ls[i:i+1], deadlockPolicy())...)
			}
			if byEdges := BreaksOf(edges); !reflect.DeepEqual(byEdges, got) {
				t.Errorf("BreaksOf(edges per issue) = %+v\nwant Breaks' %+v", byEdges, got)
			}
		})
	}
}

func TestBreaksLeaveNoCycleAndAreDeterministic(t *testing.T) {
	// A dense graph: every role asks every other role in its own issue, twice.
	parties := []Party{pmParty, archParty, engParty, {Login: "zed"}}
	targets := []Target{toPM, toArch, toEng, {Kind: TargetLogin, Name: "zed"}}
	var ws []waitEdge
	issue := 0
	for i, a := range parties {
		for j, tg := range targets {
			if i == j {
				continue
			}
			issue++
			ws = append(ws, waitEdge{issue: issue, seq: 1, asker: a, target: tg}, waitEdge{issue: issue, seq: 2, asker: a, target: tg})
		}
	}
	p := deadlockPolicy()
	ls := waitLedgers(ws...)
	first := Breaks(ls, p)
	if again := Breaks(ls, p); !reflect.DeepEqual(first, again) {
		t.Fatalf("Breaks differ between runs:\n%+v\n%+v", first, again)
	}
	escalated := map[string]bool{}
	for _, b := range first {
		escalated[b.ID] = true
	}
	for i := range ls {
		for j := range ls[i].Clarifications {
			if escalated[ls[i].Clarifications[j].ID] {
				ls[i].Clarifications[j].Status = Escalated
			}
		}
	}
	if left := Breaks(ls, p); len(left) != 0 {
		t.Errorf("after escalating %d, cycles are left: %+v", len(first), left)
	}
	// The product manager's questions are never the ones escalated while lower askers wait in the cycle.
	for _, b := range first {
		if b.Cycle[0] == "product-manager" {
			t.Errorf("escalated the highest-priority asker: %+v", b)
		}
	}
}

func TestOnCycles(t *testing.T) {
	edge := func(issue int, from, to string) WaitFor {
		return WaitFor{Issue: issue, ID: fmt.Sprintf("CLR-%d-001", issue), From: from, To: to}
	}
	cases := map[string]struct {
		edges []WaitFor
		want  []int // the issues of the edges on a cycle
	}{
		"noEdges":                    {},
		"aChainIsNoCycle":            {edges: []WaitFor{edge(1, "engineer", "architect"), edge(2, "architect", "product-manager")}},
		"selfLoopIsNoCycle":          {edges: []WaitFor{edge(1, "engineer", "engineer")}},
		"twoWayCycle":                {edges: []WaitFor{edge(1, "engineer", "architect"), edge(2, "architect", "engineer")}, want: []int{1, 2}},
		"edgeIntoACycleIsNotOnIt":    {edges: []WaitFor{edge(1, "pm", "engineer"), edge(2, "engineer", "architect"), edge(3, "architect", "engineer")}, want: []int{2, 3}},
		"selfLoopBesideACycleIsLeft": {edges: []WaitFor{edge(1, "engineer", "engineer"), edge(2, "engineer", "architect"), edge(3, "architect", "engineer")}, want: []int{2, 3}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []int
			for _, e := range OnCycles(tc.edges) {
				got = append(got, e.Issue)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("OnCycles gives issues %v, want %v", got, tc.want)
			}
		})
	}
}

func TestWaitFors(t *testing.T) {
	got := WaitFors(waitLedgers(
		waitEdge{issue: 2, seq: 1, asker: archParty, target: Target{Kind: TargetTeam, Name: "Octo/QA"}},
		waitEdge{issue: 1, seq: 2, asker: Party{Login: "Zed"}, target: Target{Kind: TargetLogin, Name: "bob"}},
		waitEdge{issue: 1, seq: 1, asker: engParty, target: toPM},
		waitEdge{issue: 1, seq: 3, asker: engParty, target: toPM, status: Answered},
	), deadlockPolicy())
	want := []WaitFor{
		{Issue: 1, ID: "CLR-1-001", From: "engineer", To: "product-manager", AskerPriority: 2},
		{Issue: 1, ID: "CLR-1-002", From: "zed", To: "architect", AskerPriority: 3},
		{Issue: 2, ID: "CLR-2-001", From: "architect", To: "@octo/qa", AskerPriority: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WaitFors = %+v\nwant %+v", got, want)
	}
}

func BenchmarkBreaks(b *testing.B) {
	var ws []waitEdge
	for i := 1; i <= 300; i++ {
		ws = append(ws, waitEdge{issue: i, seq: 1, asker: Party{Login: fmt.Sprintf("u%d", i%40)}, target: Target{Kind: TargetLogin, Name: fmt.Sprintf("u%d", (i*7)%40)}})
	}
	ls, p := waitLedgers(ws...), deadlockPolicy()
	for b.Loop() {
		Breaks(ls, p)
	}
}
