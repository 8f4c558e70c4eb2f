package action_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestTheDocumentedWorkflowIsTheOneCIChecks: docs/workflow.md shows the workflow to copy;
// .ci/run checks docs/workflow.yml with actionlint. They must be the same workflow.
func TestTheDocumentedWorkflowIsTheOneCIChecks(t *testing.T) {
	page, err := os.ReadFile("../../docs/workflow.md")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../docs/workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "```yaml\nname: Clarify\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("docs/workflow.md has no ```yaml block starting with name: Clarify")
	}
	var fromPage, fromFile map[string]any
	if err := yaml.Unmarshal([]byte("name: Clarify\n"+block), &fromPage); err != nil {
		t.Fatalf("docs/workflow.md's workflow: %v", err)
	}
	if err := yaml.Unmarshal(file, &fromFile); err != nil {
		t.Fatalf("docs/workflow.yml: %v", err)
	}
	if !reflect.DeepEqual(fromPage, fromFile) {
		t.Errorf("docs/workflow.md's workflow differs from docs/workflow.yml:\npage: %v\nfile: %v", fromPage, fromFile)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil || !strings.Contains(string(ci), "actionlint@v") || !strings.Contains(string(ci), "docs/workflow.yml") {
		t.Errorf(".ci/run does not run a pinned actionlint on docs/workflow.yml")
	}
}

// TestConcurrencyGroupsKeepTheSweepApart: the job's concurrency group, evaluated as
// GitHub does for each event, puts an event in its issue's or pull request's group, and
// only schedule and workflow_dispatch in the sweep's: a pull request push (an outsider's
// fork too) must never replace the pending scheduled run, or deadlines never fire.
func TestConcurrencyGroupsKeepTheSweepApart(t *testing.T) {
	wf := readWorkflow(t)
	cases := []struct {
		event   string
		payload map[string]any
		want    string
	}{
		{"issue_comment", map[string]any{"issue": map[string]any{"number": 42.0}}, "clarify-42"},
		{"issues", map[string]any{"issue": map[string]any{"number": 42.0}}, "clarify-42"},
		{"pull_request", map[string]any{"number": 8.0, "pull_request": map[string]any{"number": 8.0}}, "clarify-8"},
		{"repository_dispatch", map[string]any{"client_payload": map[string]any{"issue": 42.0}}, "clarify-42"},
		{"repository_dispatch", map[string]any{"client_payload": map[string]any{}}, "clarify-777"},
		{"schedule", map[string]any{"schedule": "7 */2 * * *"}, "clarify sweep"},
		{"workflow_dispatch", map[string]any{"inputs": map[string]any{}}, "clarify sweep"},
	}
	for _, tc := range cases {
		if got := wf.group(t, tc.event, tc.payload); got != tc.want {
			t.Errorf("%s %v: group %q, want %q", tc.event, tc.payload, got, tc.want)
		}
	}
}

// TestEveryActionInputIsDocumented: docs/workflow.md's table of inputs has a row for each
// input of action.yml, with its default and the environment variable the step passes it
// in, and no row for an input the action does not have.
func TestEveryActionInputIsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []struct {
				Env map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatal(err)
	}
	envOf := map[string]string{}
	for _, step := range action.Runs.Steps {
		for env, value := range step.Env {
			if name, ok := strings.CutPrefix(value, "${{ inputs."); ok {
				envOf[strings.TrimSuffix(name, " }}")] = env
			}
		}
	}
	rows := documentedInputs(t)
	for name, input := range action.Inputs {
		row, ok := rows[name]
		switch {
		case !ok:
			t.Errorf("docs/workflow.md's table of inputs has no row for %s", name)
		case input.Default != "" && row[0] != "`"+input.Default+"`":
			t.Errorf("docs/workflow.md gives %s the default %s; action.yml has %q", name, row[0], input.Default)
		case envOf[name] != "" && row[1] != "`"+envOf[name]+"`":
			t.Errorf("docs/workflow.md says %s is read from %s; action.yml passes it as %s", name, row[1], envOf[name])
		}
		delete(rows, name)
	}
	for name := range rows {
		t.Errorf("docs/workflow.md documents an input %s that action.yml does not have", name)
	}
}

// documentedInputs reads the table of docs/workflow.md's Inputs section, not the page's
// other tables: each input's name and its cells after the name (default, variable, meaning).
func documentedInputs(t *testing.T) map[string][]string {
	t.Helper()
	page, err := os.ReadFile("../../docs/workflow.md")
	if err != nil {
		t.Fatal(err)
	}
	_, inputs, _ := strings.Cut(string(page), "\n## Inputs\n")
	inputs, _, _ = strings.Cut(inputs, "\n## ")
	rows := map[string][]string{}
	for _, line := range strings.Split(inputs, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) == 4 && strings.HasPrefix(line, "| `") {
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows[strings.Trim(cells[0], "`")] = cells[1:]
		}
	}
	return rows
}
