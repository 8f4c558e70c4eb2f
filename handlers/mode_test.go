package handlers

import "testing"

func TestEachModeSaysHowItRunsBesideOthers(t *testing.T) {
	type says struct {
		concurrent, sharesIssue, inIssueGroup, batchesMemory, seesEveryEvent, writesChecks, mirrorOnly, relaysReplies bool
	}
	tests := map[string]struct {
		mode Mode
		want says
	}{
		"aLoneServerThatSweepsBatchesTheMemoryAndKnowsThePullRequestLinks": {LoneServer(true),
			says{batchesMemory: true, seesEveryEvent: true, writesChecks: true, relaysReplies: true}},
		"aLoneServerWithoutASweepWritesEachDecisionAtOnce": {LoneServer(false),
			says{seesEveryEvent: true, writesChecks: true, relaysReplies: true}},
		"theZeroModeIsALoneServerWithoutASweep": {Mode{},
			says{seesEveryEvent: true, writesChecks: true, relaysReplies: true}},
		"replicasSeeOnlyPartOfTheEvents": {Replicas(),
			says{writesChecks: true, relaysReplies: true}},
		"aScheduledWorkflowRunMayShareItsIssue": {WorkflowRun(true, true, false),
			says{concurrent: true, sharesIssue: true, writesChecks: true}},
		"anEventsWorkflowRunIsAloneInItsIssuesGroup": {WorkflowRun(false, true, false),
			says{concurrent: true, inIssueGroup: true, writesChecks: true}},
		"aWorkflowRunWithoutChecksWritesNone": {WorkflowRun(false, false, false),
			says{concurrent: true, inIssueGroup: true}},
		"aDispatchsMirrorJobWritesTheMirrorAlone": {WorkflowRun(false, true, true),
			says{concurrent: true, inIssueGroup: true, writesChecks: true, mirrorOnly: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := tc.mode
			got := says{m.concurrent(), m.sharesIssue(), m.inIssueGroup(), m.batchesMemory(), m.seesEveryEvent(), m.writesChecks(),
				m.mirrorOnly(), m.relaysDecisionReplies()}
			if got != tc.want {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}
