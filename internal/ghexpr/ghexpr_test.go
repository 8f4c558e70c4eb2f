package ghexpr

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// ctx is a github context as a workflow run sees it, decoded from JSON as a runner would.
func ctx(t *testing.T) map[string]any {
	t.Helper()
	var c map[string]any
	err := json.Unmarshal([]byte(`{"github": {"event_name": "issue_comment", "run_id": "777",
		"event": {"action": "created", "issue": {"number": 42, "labels": [{"name": "bug"}, {"name": "Clarification:Active"}]},
		"comment": {"body": "Thanks!\n/CLARIFY @maria Which one?", "user": {"login": "alice"}}, "empty": [], "zero": 0}},
		"env": {"N": "0x10", "S": " 12 "}}`), &c)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEvalFollowsGitHubsRules: each expression evaluates to what GitHub's documentation
// says it does.
func TestEvalFollowsGitHubsRules(t *testing.T) {
	cases := []struct {
		expr string
		want any
	}{
		// Literals.
		{"null", nil}, {"true", true}, {"711", 711.0}, {"-9.2", -9.2}, {"0xff", 255.0}, {"-2.99e-2", -0.0299},
		{"'It''s open source!'", "It's open source!"},
		// Property paths: dots, brackets, case-insensitive names, missing ones null.
		{"github.event.issue.number", 42.0}, {"github['event']['issue'].number", 42.0},
		{"GitHub.Event_Name", "issue_comment"}, {"github.event.nothing.deeper", nil},
		{"github.event.issue.labels[1].name", "Clarification:Active"}, {"github.event.issue.labels[9].name", nil},
		// Object filters.
		{"github.event.issue.labels.*.name", filtered{"bug", "Clarification:Active"}},
		{"github.event.issue.labels[*].name", filtered{"bug", "Clarification:Active"}},
		{"github.event.pull_request.labels.*.name", filtered{}},
		// Comparison: strings ignore case; loose equality coerces to numbers.
		{"github.event_name == 'ISSUE_COMMENT'", true}, {"'abc' < 'ABD'", true},
		{"1 == '1'", true}, {"env.S == 12", true}, {"env.N == 16", true}, {"'' == 0", true},
		{"null == 0", true}, {"null == false", true}, {"true == 1", true}, {"true == '1'", true},
		{"'abc' == 0", false}, {"'abc' != 0", true}, {"github.event.nothing == null", true},
		{"github.event.nothing == ''", true}, {"github.event.issue == github.event.issue", true},
		{"github.event.empty == github.event.empty", true}, {"github.event.issue.labels.* == github.event.issue.labels.*", false},
		{"3 >= 3", true}, {"2 > '10'", false}, {"'b' > 'A'", true}, {"true > false", true}, {"1 < 'x'", false},
		// Logic: && and || return an operand; ! returns a boolean.
		{"github.event.issue.number || 'none'", 42.0}, {"github.event.zero || 'none'", "none"},
		{"'' && 'x'", ""}, {"'a' && 'b'", "b"}, {"!github.event.zero", true}, {"!github.event.empty", false},
		{"false || null", nil}, {"1 == 1 && 2 == 2 || false", true}, {"!(1 == 1)", false},
		// Functions.
		{"contains(github.event.comment.body, '/clarify')", true},
		{"contains(github.event.issue.labels.*.name, 'clarification:active')", true},
		{"contains(github.event.issue.labels.*.name, 'clarification:')", false},
		{"contains(fromJSON('[1, 2]'), '2')", true},
		{"contains(github.event.nothing, '')", true},
		{"startsWith('Hello world', 'he')", true}, {"endsWith('Hello world', 'LD')", true},
		{"startsWith(github.event.nothing, 'x')", false},
		{"format('Hello {0} {1} {2}', 'Mona', 'the', 'Octocat')", "Hello Mona the Octocat"},
		{"format('{{Hello {0}}}', 42)", "{Hello 42}"}, {"format('{0}', 1.50)", "1.5"},
		{"join(github.event.issue.labels.*.name, ', ')", "bug, Clarification:Active"},
		{"join(github.event.issue.labels.*.name)", "bug,Clarification:Active"}, {"join('one')", "one"},
		{"format('{0}', github.event.issue)", "Object"}, {"format('{0}', github.event.empty)", "Array"},
		{"toJSON(github.event.issue.labels[0])", "{\n  \"name\": \"bug\"\n}"},
		{"fromJSON('{\"a\": [true]}').a[0]", true}, {"fromJSON(' 3 ')", 3.0},
		{"success() && !failure() && !cancelled() && always()", true},
	}
	for _, tc := range cases {
		e, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		got, err := e.Eval(ctx(t))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v (%v), want %#v", tc.expr, got, err, tc.want)
		}
	}
}

// TestTruthyAndStrings: GitHub's truthiness and string conversions.
func TestTruthyAndStrings(t *testing.T) {
	for v, want := range map[any]bool{nil: false, false: false, 0.0: false, math.NaN(): false, "": false, "0": true, -1.0: true, "false": true} {
		if Truthy(v) != want {
			t.Errorf("Truthy(%#v) = %v", v, !want)
		}
	}
	if !Truthy([]any{}) || !Truthy(map[string]any{}) {
		t.Error("an empty array or object is falsy, want truthy")
	}
	for v, want := range map[any]string{nil: "", true: "true", 3.0: "3", 0.1 + 0.2: "0.3", -1.25: "-1.25"} {
		if got := String(v); got != want {
			t.Errorf("String(%#v) = %q, want %q", v, got, want)
		}
	}
}

// TestIfAndInterpolate: an if: may be written with or without ${{ }}; Interpolate fills
// each ${{ }} of a string.
func TestIfAndInterpolate(t *testing.T) {
	for _, cond := range []string{"github.event.action == 'created'", "${{ github.event.action == 'created' }}", " ${{github.event.issue.number}} "} {
		if ok, err := If(cond, ctx(t)); !ok || err != nil {
			t.Errorf("If(%q) = %v, %v; want true", cond, ok, err)
		}
	}
	if ok, err := If("github.event.action == 'edited'", ctx(t)); ok || err != nil {
		t.Errorf("If(edited) = %v, %v; want false", ok, err)
	}
	got, err := Interpolate("clarify-${{ github.event.issue.number }}-${{ github.run_id }}", ctx(t))
	if err != nil || got != "clarify-42-777" {
		t.Errorf("Interpolate = %q, %v", got, err)
	}
}

// TestRefusesWhatGitHubRefuses: malformed expressions, unknown functions and contexts, and
// bad format strings are errors, not quietly false.
func TestRefusesWhatGitHubRefuses(t *testing.T) {
	for _, expr := range []string{
		"", "github.", "(1 == 1", "'open", "1 === 1", "frobnicate(1)", "contains('a')", "hashFiles('go.sum')",
		"secretz.KEY", "format('{1}', 'a')", "format('{0', 'a')", "format('a}', 'a')", "fromJSON('{')", "a b",
	} {
		e, err := Parse(expr)
		if err == nil {
			_, err = e.Eval(ctx(t))
		}
		if err == nil {
			t.Errorf("%q: no error", expr)
		}
	}
}
