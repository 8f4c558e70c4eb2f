package asker_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// state is an asker's state as agents keep it: JSON, quotes, an HTML comment's end.
const state = `{"session":"7f3a","thread":"t-19","note":"--> <b>& \"quoted\""}`

func TestADispatchedAskIsFoundByItsRefAndGivesTheStateBack(t *testing.T) {
	w := newWorld(t)
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--ref", "run-981/step-3",
		"--state", state, "--json")
	notModified, other, lines := w.wire.counts()
	t.Logf("bot ask by dispatch: %d requests GitHub counts, %d answered 304\n  %s", other, notModified, strings.Join(lines, "\n  "))
	var rec clarify.AskRecord
	if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec.ID != "CLR-42-001" || rec.Ref != "run-981/step-3" || rec.State != state {
		t.Fatalf("bot ask --state: exit %d, stdout %s, stderr %s; want CLR-42-001 with its ref and the state byte for byte", code, out, errs)
	}
	if d := w.h.Fake.Dispatches(repo); len(d) != 1 || d[0].EventType != "clarify" {
		t.Fatalf("dispatches sent: %+v; want one of type clarify (a comment cannot carry state)", d)
	}
	w.after(5*time.Minute, w.say(person, "Per API key."))
	code, out, errs = w.run(asker.Door.Wait, "octo/widgets#42", rec.ID, "--json")
	if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec.Answer != "Per API key." || rec.State != state {
		t.Errorf("bot wait --json: exit %d, %s %s; want the answer and the state byte for byte", code, out, errs)
	}
}

func TestARetriedAskWithTheSameRefIsAskedOnce(t *testing.T) {
	for name, extra := range map[string][]string{"byComment": nil, "byDispatch": {"--dispatch"}} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			args := append([]string{"octo/widgets#42", "@maria", "Per API key?", "--ref", "step-3"}, extra...)
			first, out1, errs := w.run(asker.Door.Ask, args...)
			again, out2, errs2 := w.run(asker.Door.Ask, args...)
			if first != 0 || again != 0 || strings.TrimSpace(out1) != "CLR-42-001" || out2 != out1 {
				t.Fatalf("the same ask twice: exit %d %q (%s), then exit %d %q (%s); want 0 and CLR-42-001 both times",
					first, out1, errs, again, out2, errs2)
			}
			w.sleep(t.Context(), time.Second) // GitHub delivers what is left, and the app runs
			if l, err := w.h.Ledger(repo, issue); err != nil || len(l.Clarifications) != 1 {
				t.Errorf("the ledger holds %d clarifications (%v); want one", len(l.Clarifications), err)
			}
		})
	}
}

func TestARefusedDispatchIsFoundByItsRef(t *testing.T) {
	w := newWorld(t)
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--ref", "step-4",
		"--state", strings.Repeat("x", clarify.MaxStateBytes+1))
	if code != 1 || strings.TrimSpace(out) != string(clarify.CodeTooLong) {
		t.Fatalf("bot ask with a state over 8 KiB: exit %d, stdout %q, stderr %q; want 1 and %s", code, out, errs, clarify.CodeTooLong)
	}
}

func TestAWorkflowsOwnTokenAsksByDispatch(t *testing.T) {
	job := map[string]string{"GITHUB_ACTIONS": "true"}
	cases := map[string]struct {
		env          map[string]string
		token        string
		source       string
		wantDispatch bool
	}{
		"jobTokenInGITHUB_TOKEN":  {job, "ghs_abc", "GITHUB_TOKEN", true},
		"jobTokenInGH_TOKEN":      {job, "ghs_abc", "GH_TOKEN", true},
		"personalTokenInAJob":     {job, "github_pat_abc", "GITHUB_TOKEN", false},
		"ghsLoginOfGhOutsideEnv":  {job, "ghs_abc", "gh", false},
		"outsideActions":          {nil, "ghs_abc", "GITHUB_TOKEN", false},
		"actionsNotTrueOutsideIt": {map[string]string{"GITHUB_ACTIONS": "false"}, "ghs_abc", "GH_TOKEN", false},
	}
	for name, tc := range cases {
		getenv := func(k string) string { return tc.env[k] }
		if got := asker.CommentStartsNoRun(getenv, tc.token, tc.source); got != tc.wantDispatch {
			t.Errorf("%s: CommentStartsNoRun = %v, want %v", name, got, tc.wantDispatch)
		}
	}
}

// TestTheJobsTokenAsksByDispatchUnderEitherName (issue 33): a job gives bot its
// GITHUB_TOKEN as GITHUB_TOKEN or, as GitHub documents for gh, as GH_TOKEN; either way, and
// whatever the app's slug, the ask goes as a repository_dispatch, since a comment made with
// that token starts no workflow. A personal token in a job comments.
func TestTheJobsTokenAsksByDispatchUnderEitherName(t *testing.T) {
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			env := map[string]string{"GITHUB_ACTIONS": "true", name: w.h.Fake.WorkflowToken(repo)}
			var out, errs bytes.Buffer
			d := w.door(&out, &errs, env)
			d.Env.Token = func() (string, string, error) { return asker.TokenFromEnv(d.Env.Getenv) }
			code := d.Ask([]string{"octo/widgets#42", "@maria", "Per API key?"})
			if code != 0 || len(w.h.Fake.Dispatches(repo)) != 1 {
				t.Errorf("the job's token in %s: exit %d (%s), %d dispatches; want the ask sent as one dispatch",
					name, code, errs.String(), len(w.h.Fake.Dispatches(repo)))
			}
		})
	}
	w := newWorld(t)
	var out, errs bytes.Buffer
	d := w.door(&out, &errs, map[string]string{"GITHUB_ACTIONS": "true", "GH_TOKEN": w.token})
	d.Env.Token = func() (string, string, error) { return asker.TokenFromEnv(d.Env.Getenv) }
	if code := d.Ask([]string{"octo/widgets#42", "@maria", "Per API key?"}); code != 0 || len(w.h.Fake.Dispatches(repo)) != 0 {
		t.Errorf("a personal token in a job: exit %d, %d dispatches; want a comment", code, len(w.h.Fake.Dispatches(repo)))
	}
}

// TestARefIsTheAskersOwn (issue 33): two askers dispatch asks with the same ref; each gets
// its own clarification, and neither is handed the other's, before the app has taken its
// own ask or after.
func TestARefIsTheAskersOwn(t *testing.T) {
	w := newWorld(t)
	w.h.Fake.AddUser("reviewer-agent", "User")
	w.h.Fake.SetPermission(repo, "reviewer-agent", "write")
	tokens := map[string]string{agent: w.token, "reviewer-agent": w.h.Fake.PersonalToken(repo, "reviewer-agent")}
	ask := func(who string) clarify.AskRecord {
		t.Helper()
		w.token = tokens[who]
		code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--ref", "step-1", "--dispatch", "--json")
		var rec clarify.AskRecord
		if code != 0 || json.Unmarshal([]byte(out), &rec) != nil {
			t.Fatalf("%s's ask: exit %d, %s %s", who, code, out, errs)
		}
		return rec
	}
	first, second := ask(agent), ask("reviewer-agent")
	if first.ID != "CLR-42-001" || first.Asker != agent || second.ID != "CLR-42-002" || second.Asker != "reviewer-agent" {
		t.Fatalf("asks with the same ref: %s by %s, then %s by %s; want CLR-42-001 by %s, CLR-42-002 by reviewer-agent",
			first.ID, first.Asker, second.ID, second.Asker, agent)
	}
	if again := ask(agent); again.ID != first.ID {
		t.Errorf("%s's retry of step-1 got %s; want its own %s", agent, again.ID, first.ID)
	}
	if l, err := w.h.Ledger(repo, issue); err != nil || len(l.Clarifications) != 2 {
		t.Errorf("the ledger holds %d clarifications (%v); want two", len(l.Clarifications), err)
	}
}

// TestStatusByRefIsNeverAnotherAskersDispatch (issue 33): bot status --ref finds the
// asker's own dispatched ask by its ref, never another asker's with the same ref.
func TestStatusByRefIsNeverAnotherAskersDispatch(t *testing.T) {
	w := newWorld(t)
	w.h.Fake.AddUser("reviewer-agent", "User")
	w.h.Fake.SetPermission(repo, "reviewer-agent", "write")
	mine := w.token
	w.token = w.h.Fake.PersonalToken(repo, "reviewer-agent")
	if code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--ref", "step-1", "--dispatch"); code != 0 {
		t.Fatalf("reviewer-agent's ask: exit %d, %s %s", code, out, errs)
	}
	w.token = mine
	code, out, _ := w.run(asker.Door.Status, "octo/widgets#42", "--ref", "step-1", "--json")
	if code == 0 || strings.Contains(out, "reviewer-agent") {
		t.Errorf("coder-agent's status --ref step-1 beside reviewer-agent's ask: exit %d, %s; want none of its own", code, out)
	}
}
