package asker_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/wire"
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

func TestAWorkflowsOwnTokenAsksByDispatchWhereClarifyIsAWorkflow(t *testing.T) {
	job := map[string]string{"GITHUB_ACTIONS": "true"}
	cases := map[string]struct {
		env          map[string]string
		slug, token  string
		source       string
		wantDispatch bool
	}{
		"jobTokenActionMode":  {job, wire.ActionsSlug, "ghs_abc", "GITHUB_TOKEN", true},
		"jobTokenAppMode":     {job, "clarify", "ghs_abc", "GITHUB_TOKEN", false},
		"personalTokenInAJob": {job, wire.ActionsSlug, "github_pat_abc", "GITHUB_TOKEN", false},
		"ghTokenSetByTheJob":  {job, wire.ActionsSlug, "ghs_abc", "GH_TOKEN", false},
		"outsideActions":      {nil, wire.ActionsSlug, "ghs_abc", "GITHUB_TOKEN", false},
	}
	for name, tc := range cases {
		getenv := func(k string) string { return tc.env[k] }
		if got := asker.CommentStartsNoRun(getenv, tc.slug, tc.token, tc.source); got != tc.wantDispatch {
			t.Errorf("%s: CommentStartsNoRun = %v, want %v", name, got, tc.wantDispatch)
		}
	}
	// End to end: a job's GITHUB_TOKEN in App mode comments.
	w := newWorld(t)
	var out, errs bytes.Buffer
	if code := w.door(&out, &errs, job).Ask([]string{"octo/widgets#42", "@maria", "Per API key?"}); code != 0 || len(w.h.Fake.Dispatches(repo)) != 0 {
		t.Errorf("App mode: exit %d, %d dispatches; want a comment", code, len(w.h.Fake.Dispatches(repo)))
	}
}
