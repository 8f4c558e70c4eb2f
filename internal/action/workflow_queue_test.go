package action_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghexpr"
)

// group is the concurrency group of the run (run_id 777) GitHub starts for the event: the
// job's when it has one, else the workflow's.
func (wf copiedWorkflow) group(t *testing.T, event string, payload map[string]any) string {
	t.Helper()
	conc := wf.Jobs["clarify"].Concurrency
	if conc == nil {
		conc = wf.Concurrency
	}
	g, _ := group(t, conc, map[string]any{"github": map[string]any{"event_name": event, "event": payload, "run_id": "777"}})
	return g
}

// group evaluates a concurrency: value for a run: its group, empty for none.
func group(t *testing.T, conc any, ctx map[string]any) (string, bool) {
	t.Helper()
	var expr string
	cancel := false
	switch c := conc.(type) {
	case nil:
		return "", false
	case string:
		expr = c
	case map[string]any:
		expr, _ = c["group"].(string)
		cancel, _ = c["cancel-in-progress"].(bool)
	default:
		t.Fatalf("concurrency: %v is neither a group nor a map", conc)
	}
	g, err := ghexpr.Interpolate(expr, ctx)
	if err != nil {
		t.Fatalf("concurrency group %q: %v", expr, err)
	}
	// GitHub compares groups without regard to case.
	return strings.ToLower(g), cancel
}

// slot is one concurrency group: the run in progress and the one pending.
type slot struct{ running, pending string }

// actionsQueue plays GitHub's default concurrency (one run in progress and at most one
// pending per group; a newer pending run cancels the older) over the workflow. A workflow's
// group is taken when the run is queued, before the job's if: is evaluated; a job's group
// only by a job that starts, once the jobs it needs are done. A job in no group starts at
// once. Runs in progress stay in progress: the events come faster than a job runs.
type actionsQueue struct {
	t         *testing.T
	wf        copiedWorkflow
	groups    map[string]*slot
	cancelled map[string]string // run: the run that took its place
	// mirrored are the runs whose dispatch a mirror-only job, in no group, wrote into the
	// issue before the clarify job took its group.
	mirrored map[string]bool
	runID    int
}

func newActionsQueue(t *testing.T, wf copiedWorkflow) *actionsQueue {
	return &actionsQueue{t: t, wf: wf, groups: map[string]*slot{}, cancelled: map[string]string{}, mirrored: map[string]bool{}}
}

// arrive queues the run GitHub starts for the event, named name.
func (q *actionsQueue) arrive(name, event string, payload map[string]any) {
	q.t.Helper()
	if !q.wf.triggered(event, payload) {
		return
	}
	q.runID++
	ctx := map[string]any{"github": map[string]any{"event_name": event, "event": payload,
		"run_id": fmt.Sprint(q.runID), "repository": repo, "workflow": "Clarify"}}
	if g, _ := group(q.t, q.wf.Concurrency, ctx); g != "" && !q.take(g, name) {
		return // pending: its job's if: is evaluated when it starts
	}
	for _, need := range q.wf.Jobs["clarify"].needs() {
		j := q.wf.Jobs[need]
		if q.wf.runs(q.t, need, event, payload) && j.Concurrency == nil && j.mirrorOnly() {
			q.mirrored[name] = true
		}
	}
	if !q.wf.jobIf(q.t, event, payload) {
		q.finish(name)
		return
	}
	if g, _ := group(q.t, q.wf.Jobs["clarify"].Concurrency, ctx); g != "" {
		q.take(g, name)
	}
}

// take puts a run into a group; true when it starts at once.
func (q *actionsQueue) take(g, name string) bool {
	s := q.groups[g]
	if s == nil {
		s = &slot{}
		q.groups[g] = s
	}
	if s.running == "" {
		s.running = name
		return true
	}
	if s.pending != "" {
		q.cancelled[s.pending] = name
	}
	s.pending = name
	return false
}

// finish ends a run that started and was skipped: it leaves its group at once.
func (q *actionsQueue) finish(name string) {
	for _, s := range q.groups {
		if s.running == name {
			s.running, s.pending = s.pending, ""
			// The pending run would start now; none in these plays is skipped.
		}
	}
}

// queued reports whether a run is in progress or pending in some group.
func (q *actionsQueue) queued(name string) bool {
	for _, s := range q.groups {
		if s.running == name || s.pending == name {
			return true
		}
	}
	return false
}

// TestNoSkippedRunCancelsAPendingCommand plays GitHub's queue over docs/workflow.yml: a
// command whose run is pending behind its issue's run in progress must not be cancelled by
// an event whose job is skipped (a typo fixed in an ordinary comment, a comment deleted, a
// "+1" in an issue without Clarify's label, such an issue closed). Such a run does nothing,
// so the command would wait for the scheduled run.
func TestNoSkippedRunCancelsAPendingCommand(t *testing.T) {
	wf := readWorkflow(t)
	b := newBench(t)
	f := b.fake
	// Issue 42 is labelled: the ask ran.
	b.ok("issue_comment", b.eventFile(b.commentOnly("coder-agent", askWithFallback)))
	_, typoID := f.Comment(repo, 42, "drive-by", "Any news on this? It bloks our release.")
	_, goneID := f.Comment(repo, 42, "drive-by", "Me too.")
	f.OpenIssue(repo, 43, "Cache TTL", "maria")
	_, oldID := f.Comment(repo, 43, "drive-by", "Wich TTL?")

	type event struct {
		name string
		d    fakegithub.Delivery
	}
	plays := map[string][]event{}
	reply, _ := f.Comment(repo, 42, "maria", "Per API key.")
	resolve, _ := f.Comment(repo, 42, "maria", "/clarify resolve CLR-42-001 per API key")
	plays["a resolve in a labelled issue"] = []event{{"reply", reply}, {"command", resolve},
		{"typo fixed", f.EditComment(repo, typoID, "drive-by", "Any news on this? It blocks our release.")},
		{"comment deleted", f.DeleteComment(repo, goneID, "drive-by")}}
	ask, _ := f.Comment(repo, 43, "coder-agent", "/clarify @maria Which TTL?")
	assume, _ := f.Comment(repo, 43, "coder-agent", "/assume 60 seconds")
	plusOne, _ := f.Comment(repo, 43, "drive-by", "+1")
	plays["an assume behind an ask in an issue not labelled yet"] = []event{{"ask", ask}, {"command", assume},
		{"+1", plusOne}, {"typo fixed", f.EditComment(repo, oldID, "drive-by", "Which TTL?")},
		{"issue closed", f.CloseIssue(repo, 43, "maria")}}

	for name, events := range plays {
		q := newActionsQueue(t, wf)
		for _, e := range events {
			q.arrive(e.name, e.d.Event, payloadOf(t, e.d))
		}
		if by, lost := q.cancelled["command"]; lost {
			t.Errorf("%s: the command's pending run was cancelled by the run of %q, whose job is skipped", name, by)
		}
		if !q.queued("command") {
			t.Errorf("%s: the command's run is neither in progress nor pending", name)
		}
	}
}

// TestNoDispatchJoinsTheSweepsGroup: the scheduled run's group is one no dispatch reaches,
// whatever its client_payload.issue says, so an agent's dispatch never replaces the pending
// scheduled run (nor waits behind it).
func TestNoDispatchJoinsTheSweepsGroup(t *testing.T) {
	wf := readWorkflow(t)
	groupFor := func(event string, payload map[string]any) string { return wf.group(t, event, payload) }
	sweep := groupFor("schedule", map[string]any{"schedule": "7 */2 * * *"})
	if manual := groupFor("workflow_dispatch", map[string]any{"inputs": map[string]any{}}); manual != sweep {
		t.Errorf("a manual run's group is %q, the schedule's %q: want one", manual, sweep)
	}
	tries := []any{"sweep", "Sweep", "-sweep", sweep, strings.ToUpper(sweep), 42.0, "42", "777"}
	for i := range sweep {
		tries = append(tries, sweep[i:])
	}
	for _, issue := range tries {
		g := groupFor("repository_dispatch", map[string]any{"action": "clarify", "client_payload": map[string]any{"issue": issue}})
		if g == sweep {
			t.Errorf("a dispatch with issue %q joins the scheduled run's group %q", issue, sweep)
		}
	}
}

// TestNoDispatchIsLostToANewerJob plays GitHub's queue over docs/workflow.yml: a dispatch's
// job pending behind its issue's job in progress is cancelled when a newer job of the issue
// comes, as GitHub does. A dispatch has no comment until Clarify writes its mirror, so the
// mirror must be written by then, by a job in no group that the issue's job waits for;
// the newer job then applies it with every comment past the ledger's cursor.
func TestNoDispatchIsLostToANewerJob(t *testing.T) {
	wf := readWorkflow(t)
	b := newBench(t)
	f := b.fake
	b.ok("issue_comment", b.eventFile(b.commentOnly("coder-agent", askWithFallback))) // issue 42 is labelled
	f.OpenIssue(repo, 43, "Cache TTL", "maria")
	dispatch := func(issue int, payload map[string]any) fakegithub.Delivery {
		payload["issue"] = issue
		return f.Dispatch(repo, "coder-agent", "clarify", payload)
	}
	type event struct {
		name string
		d    fakegithub.Delivery
	}
	reply, _ := f.Comment(repo, 42, "maria", "Per API key.")
	newer, _ := f.Comment(repo, 42, "maria", "/clarify")
	ask, _ := f.Comment(repo, 43, "coder-agent", "/clarify @maria Which TTL?")
	plays := map[string][]event{
		"a resolve by dispatch behind a reply in a labelled issue": {{"reply", reply},
			{"dispatch", dispatch(42, map[string]any{"action": "resolve", "id": "CLR-42-001", "decision": "per API key"})},
			{"newer", newer}},
		"an assume by dispatch behind an ask by dispatch in an issue not labelled yet": {
			{"first", dispatch(43, map[string]any{"action": "ask", "target": "@maria", "question": "Which TTL?"})},
			{"dispatch", dispatch(43, map[string]any{"action": "assume", "decision": "60 seconds"})},
			{"newer", ask}},
	}
	for name, events := range plays {
		q := newActionsQueue(t, wf)
		for _, e := range events {
			q.arrive(e.name, e.d.Event, payloadOf(t, e.d))
		}
		if by := q.cancelled["dispatch"]; by != "newer" || !q.queued("newer") {
			t.Fatalf("%s: the dispatch's job was cancelled by %q, the newer job queued: %v; want cancelled by the newer, queued",
				name, by, q.queued("newer"))
		}
		if !q.mirrored["dispatch"] {
			t.Errorf("%s: the dispatch's job was cancelled while it waited, and no job outside the issue's group had written its mirror: the command is lost", name)
		}
	}
}
