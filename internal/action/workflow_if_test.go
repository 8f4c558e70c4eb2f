package action_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghexpr"
	"github.com/clarify-app/clarify/render"
)

// copiedWorkflow is docs/workflow.yml as GitHub reads it: its triggers with their types,
// the workflow's concurrency group, and each job's condition, the jobs it needs, its group
// and its steps' inputs. A group is a string, or a map with group and cancel-in-progress.
type copiedWorkflow struct {
	On          map[string]any         `yaml:"on"`
	Concurrency any                    `yaml:"concurrency"`
	Jobs        map[string]workflowJob `yaml:"jobs"`
}

// workflowJob is one job of the copied workflow; Needs is a job's name or a list of them.
type workflowJob struct {
	If          string `yaml:"if"`
	Needs       any    `yaml:"needs"`
	Concurrency any    `yaml:"concurrency"`
	Steps       []struct {
		With map[string]string `yaml:"with"`
	} `yaml:"steps"`
}

// needs lists the jobs the job waits for.
func (j workflowJob) needs() []string {
	switch n := j.Needs.(type) {
	case string:
		return []string{n}
	case []any:
		var out []string
		for _, v := range n {
			out = append(out, fmt.Sprint(v))
		}
		return out
	}
	return nil
}

// mirrorOnly says whether the job's Clarify step runs with mirror-only: "true".
func (j workflowJob) mirrorOnly() bool {
	return slices.ContainsFunc(j.Steps, func(s struct {
		With map[string]string `yaml:"with"`
	}) bool {
		return s.With["mirror-only"] == "true"
	})
}

func readWorkflow(t *testing.T) copiedWorkflow {
	t.Helper()
	raw, err := os.ReadFile("../../docs/workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf copiedWorkflow
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	if wf.Jobs["clarify"].If == "" {
		t.Fatalf("docs/workflow.yml has jobs %v, want a job clarify with an if:", wf.Jobs)
	}
	return wf
}

// triggered says whether GitHub starts the workflow for the event: it is under on:, and its
// action is one of the trigger's types when the trigger names some.
func (wf copiedWorkflow) triggered(event string, payload map[string]any) bool {
	trigger, ok := wf.On[event]
	if !ok {
		return false
	}
	conf, _ := trigger.(map[string]any)
	types, named := conf["types"].([]any)
	return !named || slices.Contains(types, any(payload["action"]))
}

// jobIf evaluates the clarify job's if: as GitHub does, for the event and its payload.
func (wf copiedWorkflow) jobIf(t *testing.T, event string, payload map[string]any) bool {
	t.Helper()
	return wf.runs(t, "clarify", event, payload)
}

// runs evaluates a job's if: (none holds always) for the event and its payload.
func (wf copiedWorkflow) runs(t *testing.T, job, event string, payload map[string]any) bool {
	t.Helper()
	cond := wf.Jobs[job].If
	if cond == "" {
		return true
	}
	ctx := map[string]any{"github": map[string]any{"event_name": event, "event": payload, "run_id": "777",
		"repository": repo, "workflow": "Clarify"}}
	ok, err := ghexpr.If(cond, ctx)
	if err != nil {
		t.Fatalf("the %s job's if: does not evaluate: %v", job, err)
	}
	return ok
}

// payloadOf is a delivery's payload as a workflow's github.event sees it: the webhook
// payload without the installation, decoded from JSON.
func payloadOf(t *testing.T, d fakegithub.Delivery) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(d.Body, &p); err != nil {
		t.Fatal(err)
	}
	delete(p, "installation")
	return p
}

// TestAJobStartsOnlyForWhatConcernsClarify: with GitHub's payloads of each event, the
// copied workflow starts a job (its on: lets the event in and the job's if: holds, as
// GitHub evaluates it) for a command, a reply in a labelled issue, an edit or deletion of
// the status comment, a labelled issue closed or reopened, a dispatch of type clarify, the
// schedule and a manual run; and none for an ordinary comment on an issue or a pull
// request, an edit or deletion of an ordinary comment, an unlabelled issue closed, or
// Clarify's own wake-up dispatch.
func TestAJobStartsOnlyForWhatConcernsClarify(t *testing.T) {
	wf := readWorkflow(t)
	b := newBench(t)
	f := b.fake
	f.OpenIssue(repo, 43, "Cache TTL", "maria")
	f.OpenPullRequest(repo, 8, "Add rate limits", "maria")
	type event struct {
		name, event string
		payload     map[string]any
		job         bool
	}
	var events []event
	add := func(name string, job bool, d fakegithub.Delivery) {
		events = append(events, event{name, d.Event, payloadOf(t, d), job})
	}
	plain, plainID := f.Comment(repo, 42, "drive-by", "Any news on this? It blocks our release.")
	add("an ordinary comment on an issue", false, plain)
	onPR, _ := f.Comment(repo, 8, "drive-by", "LGTM, though the clarify step could be faster.")
	add("an ordinary comment on a pull request", false, onPR)
	add("an ordinary comment edited", false, f.EditComment(repo, plainID, "drive-by", "Any news? It blocks us."))

	ask := b.commentOnly("coder-agent", askWithFallback)
	add("a comment holding /clarify", true, ask)
	b.ok("issue_comment", b.eventFile(ask))
	if !slices.Contains(f.IssueLabels(repo, 42), "clarification:active") {
		t.Fatalf("the ask left labels %v, want clarification:active", f.IssueLabels(repo, 42))
	}
	respond, _ := f.Comment(repo, 43, "coder-agent", "Picked up.\n/respond CLR-43-001 per API key")
	add("a comment holding /respond on its second line", true, respond)
	assume, _ := f.Comment(repo, 43, "coder-agent", "/Assume per API key")
	add("a comment holding /assume", true, assume)
	reply, replyID := f.Comment(repo, 42, "maria", "Per API key: anonymous calls are blocked at the gateway.")
	add("a reply in an issue labelled clarification:active", true, reply)
	replyOnPR, _ := f.Comment(repo, 8, "maria", "Per API key.")
	add("an ordinary comment on a pull request, still", false, replyOnPR)
	add("a comment edited in a labelled issue", false, f.EditComment(repo, replyID, "maria", "Per API key."))

	status := statusCommentID(t, f, 42)
	edit := f.EditComment(repo, status, "drive-by", "cleaned up")
	add("the status comment edited", true, edit)
	b.ok("issue_comment", b.eventFile(edit)) // puts it right, in a new status comment or the same
	status = statusCommentID(t, f, 42)
	add("the status comment deleted", true, f.DeleteComment(repo, status, "drive-by"))
	add("an ordinary comment deleted", false, f.DeleteComment(repo, plainID, "drive-by"))
	add("a labelled issue closed", true, f.CloseIssue(repo, 42, "maria"))
	add("a labelled issue reopened", true, f.ReopenIssue(repo, 42, "maria"))
	add("an unlabelled issue closed", false, f.CloseIssue(repo, 43, "maria"))
	add("a dispatch of type clarify", true, f.Dispatch(repo, fakegithub.ActionsBotLogin, "clarify", map[string]any{"issue": 42, "body": "/clarify @maria Which limit?"}))
	add("Clarify's wake-up dispatch", false, f.Dispatch(repo, fakegithub.ActionsBotLogin, "clarify-answered", map[string]any{"issue": 42}))
	events = append(events,
		event{"the schedule", "schedule", map[string]any{"schedule": "7 */2 * * *"}, true},
		event{"a manual run", "workflow_dispatch", map[string]any{"inputs": nil, "ref": "refs/heads/main", "workflow": ".github/workflows/clarify.yml"}, true})

	for _, e := range events {
		if got := wf.triggered(e.event, e.payload) && wf.jobIf(t, e.event, e.payload); got != e.job {
			t.Errorf("%s (%s.%v): job started %v, want %v", e.name, e.event, e.payload["action"], got, e.job)
		}
	}
	// The wake-up type is kept out by the job's condition too, should someone add it to on:.
	wake := f.Dispatch(repo, fakegithub.ActionsBotLogin, "clarify-answered", map[string]any{"issue": 42})
	if wf.jobIf(t, "repository_dispatch", payloadOf(t, wake)) {
		t.Error("the job's if: holds for a clarify-answered dispatch, Clarify's own wake-up")
	}
}

// statusCommentID is github-actions[bot]'s status comment in issue n.
func statusCommentID(t *testing.T, f *fakegithub.Server, n int) int64 {
	t.Helper()
	for _, c := range f.Comments(repo, n) {
		if c.User == fakegithub.ActionsBotLogin && render.IsStatus(c.Body) {
			return c.ID
		}
	}
	t.Fatalf("no status comment in #%d", n)
	return 0
}

// TestTheScheduleCostsAtMost750MinutesAMonth: the default schedule runs at least every two
// hours, and its jobs, billed a whole minute each, come to at most 750 minutes in a
// 30-day month.
func TestTheScheduleCostsAtMost750MinutesAMonth(t *testing.T) {
	wf := readWorkflow(t)
	crons, _ := wf.On["schedule"].([]any)
	if len(crons) != 1 {
		t.Fatalf("on.schedule is %v, want one cron", wf.On["schedule"])
	}
	cron := crons[0].(map[string]any)["cron"].(string)
	runs := dailyRuns(t, cron)
	gap := 24*60 - runs[len(runs)-1] + runs[0]
	for i := 1; i < len(runs); i++ {
		gap = max(gap, runs[i]-runs[i-1])
	}
	minutes := 30 * len(runs)
	t.Logf("cron %q: %d jobs a day, %d billed minutes a month, at most %d minutes between runs", cron, len(runs), minutes, gap)
	if gap > 120 || minutes > 750 {
		t.Errorf("cron %q: %d minutes between runs and %d billed minutes a month, want at most 120 and 750", cron, gap, minutes)
	}
}

// dailyRuns lists the minutes of the day a cron that runs every day starts a job at.
func dailyRuns(t *testing.T, cron string) []int {
	t.Helper()
	f := strings.Fields(cron)
	if len(f) != 5 || f[2] != "*" || f[3] != "*" || f[4] != "*" {
		t.Fatalf("cron %q: want minute and hour fields, every day", cron)
	}
	var runs []int
	for _, h := range cronField(t, f[1], 24) {
		for _, m := range cronField(t, f[0], 60) {
			runs = append(runs, h*60+m)
		}
	}
	return runs
}

// cronField expands a cron field of values 0 to n-1: *, */step, a-b, a-b/step, lists.
func cronField(t *testing.T, field string, n int) []int {
	t.Helper()
	var out []int
	for _, part := range strings.Split(field, ",") {
		rng, stepText, stepped := strings.Cut(part, "/")
		step, lo, hi := 1, 0, n-1
		var err error
		if stepped {
			if step, err = strconv.Atoi(stepText); err != nil || step < 1 {
				t.Fatalf("cron field %q: bad step", field)
			}
		}
		if rng != "*" {
			a, b, isRange := strings.Cut(rng, "-")
			lo, err = strconv.Atoi(a)
			hi = lo
			if isRange {
				hi, err = strconv.Atoi(b)
			} else if stepped {
				hi = n - 1
			}
			if err != nil || lo < 0 || hi >= n || lo > hi {
				t.Fatalf("cron field %q: bad range", field)
			}
		}
		for v := lo; v <= hi; v += step {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestTheScheduleTableAddsUp: each row of the workflow page's table of schedules gives the
// jobs a day, billed minutes a month and longest wait that its cron makes, and the row
// marked the default is the copied workflow's cron.
func TestTheScheduleTableAddsUp(t *testing.T) {
	wf := readWorkflow(t)
	cron := wf.On["schedule"].([]any)[0].(map[string]any)["cron"].(string)
	page, err := os.ReadFile("../../docs/workflow.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(page), "| cron | jobs a day | billed minutes a month | a deadline fires at most this late |")
	table, _, _ = strings.Cut(table, "\n\n")
	rows, defaults := 0, 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 || !strings.HasPrefix(line, "| `") {
			continue
		}
		rows++
		c, note, _ := strings.Cut(strings.TrimSpace(cells[0])[1:], "`")
		if strings.Contains(note, "default") {
			defaults++
			if c != cron {
				t.Errorf("the table's default is %q; the workflow's cron is %q", c, cron)
			}
		}
		runs := dailyRuns(t, c)
		gap := 24*60 - runs[len(runs)-1] + runs[0]
		for i := 1; i < len(runs); i++ {
			gap = max(gap, runs[i]-runs[i-1])
		}
		late := fmt.Sprintf("%d minutes", gap)
		if gap%60 == 0 {
			late = fmt.Sprintf("%d hours", gap/60)
			if gap == 60 {
				late = "1 hour"
			}
		}
		want := []string{strconv.Itoa(len(runs)), humanInt(30 * len(runs)), late}
		for i, w := range want {
			if got := strings.TrimSpace(cells[i+1]); got != w {
				t.Errorf("cron %q: column %d says %q, want %q", c, i+2, got, w)
			}
		}
	}
	if rows < 3 || defaults != 1 {
		t.Errorf("the page's schedule table has %d rows and %d marked the default; want several and one", rows, defaults)
	}
}

// humanInt writes n with a comma between thousands, as the docs do.
func humanInt(n int) string {
	s := strconv.Itoa(n)
	if len(s) > 3 {
		return s[:len(s)-3] + "," + s[len(s)-3:]
	}
	return s
}
