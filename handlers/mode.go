package handlers

// Mode says how this process runs issues beside other processes. It is set once, where
// the engine is built (NewBase); each behaviour that differs between the modes is one of
// its methods, so no caller combines flags.
//
//   - LoneServer: one process serves webhooks and holds every lock.
//   - Replicas: several processes share locks, deliveries and recent decisions (Redis).
//   - WorkflowRun: bot action, one workflow run of one repository, sharing no lock with
//     the runs beside it.
//
// The zero Mode is a lone server that does not sweep.
type Mode struct {
	kind modeKind
	// sweeps: a lone server that runs the sweep; a workflow run that is the scheduled one.
	sweeps bool
	// noChecks: a workflow run whose token may not write check runs.
	noChecks bool
	// mirrorsOnly: a workflow run that writes a dispatch's mirror and nothing else.
	mirrorsOnly bool
}

type modeKind int

const (
	loneServer modeKind = iota
	replicas
	workflowRun
)

// LoneServer is one process serving webhooks with nothing shared; sweeps says it also
// runs the sweep, which writes what waits for the decision memory's next write.
func LoneServer(sweeps bool) Mode { return Mode{kind: loneServer, sweeps: sweeps} }

// Replicas are processes that share locks, deliveries and recent decisions.
func Replicas() Mode { return Mode{kind: replicas} }

// WorkflowRun is one run of bot action. scheduled says it is the repository's scheduled
// sweep rather than an event's run; checks says its token may write check runs; mirrorOnly
// says it writes a dispatch's mirror and nothing else (Mode.mirrorOnly).
func WorkflowRun(scheduled, checks, mirrorOnly bool) Mode {
	return Mode{kind: workflowRun, sweeps: scheduled, noChecks: !checks, mirrorsOnly: mirrorOnly}
}

// concurrent says other processes may run this issue at the same moment with no lock
// shared (a workflow run): saves and memory writes are read back (guard.go).
func (m Mode) concurrent() bool { return m.kind == workflowRun }

// sharesIssue says this run may share its issue with another: the scheduled workflow run,
// in a concurrency group of its own. Its saves check that the ledger did not move.
func (m Mode) sharesIssue() bool { return m.kind == workflowRun && m.sweeps }

// inIssueGroup says only the scheduled run may run this issue beside this one: an event's
// workflow run, which the workflow's concurrency group runs one at a time per issue. Such
// a run leaves the checks of the status comment and of its posts to the scheduled run.
func (m Mode) inIssueGroup() bool { return m.kind == workflowRun && !m.sweeps }

// batchesMemory says the decision memory is written at most once a minute
// (decisions/pending.go): only a lone server that runs the sweep, which writes what waits.
// Replicas would each hold decisions the others' offers cannot see, and workflow runs end
// with their process: both write each decision at once, as the read-backs of concurrent
// runs (guard.go) expect.
func (m Mode) batchesMemory() bool { return m.kind == loneServer && m.sweeps }

// seesEveryEvent says this process handles every pull_request event of its installations,
// so what one listing and the events since say is linked can spare a listing: only a lone
// server. Replicas and workflow runs each see a part of the events.
func (m Mode) seesEveryEvent() bool { return m.kind == loneServer }

// writesChecks says pull requests' check runs are written. A workflow token without
// `checks: write` could not write them, and listing pull requests for them would cost two
// requests a clarification for nothing (bot action, unless CLARIFY_CHECKS is true).
func (m Mode) writesChecks() bool { return !m.noChecks }

// relaysDecisionReplies says a reply in a decision issue is taken to its work issue
// (decision_reply.go): not in a workflow run, whose job for a comment in the decision issue
// would run in that issue's concurrency group beside the work issue's own jobs.
func (m Mode) relaysDecisionReplies() bool { return m.kind != workflowRun }

// mirrorOnly says a dispatch's run writes its mirror (or its refusal) and nothing else:
// the job a workflow runs outside the issue's concurrency group, before the issue's own job
// waits there, where a newer job may cancel it; that job, or the newer one, folds the
// mirror in (docs/workflow.md).
func (m Mode) mirrorOnly() bool { return m.kind == workflowRun && m.mirrorsOnly }
