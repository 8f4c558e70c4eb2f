package handlers

import "testing"

func TestEachModeSaysHowItRunsBesideOthers(t *testing.T) {
	type says struct{ concurrent, sharesIssue, inIssueGroup, batchesMemory, seesEveryEvent, writesChecks bool }
	tests := map[string]struct {
		mode Mode
		want says
	}{
		"aLoneServerThatSweepsBatchesTheMemoryAndKnowsThePullRequestLinks": {LoneServer(true),
			says{batchesMemory: true, seesEveryEvent: true, writesChecks: true}},
		"aLoneServerWithoutASweepWritesEachDecisionAtOnce": {LoneServer(false),
			says{seesEveryEvent: true, writesChecks: true}},
		"theZeroModeIsALoneServerWithoutASweep": {Mode{},
			says{seesEveryEvent: true, writesChecks: true}},
		"replicasSeeOnlyPartOfTheEvents": {Replicas(),
			says{writesChecks: true}},
		"aScheduledWorkflowRunMayShareItsIssue": {WorkflowRun(true, true, false),
			says{concurrent: true, sharesIssue: true, writesChecks: true}},
		"anEventsWorkflowRunIsAloneInItsIssuesGroup": {WorkflowRun(false, true, false),
			says{concurrent: true, inIssueGroup: true, writesChecks: true}},
		"aWorkflowRunWithoutChecksWritesNone": {WorkflowRun(false, false, false),
			says{concurrent: true, inIssueGroup: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := tc.mode
			got := says{m.concurrent(), m.sharesIssue(), m.inIssueGroup(), m.batchesMemory(), m.seesEveryEvent(), m.writesChecks()}
			if got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}
