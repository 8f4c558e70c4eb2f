package action_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestTheREADMEsWorkflowIsTheOneCIChecks: the README shows the workflow to copy; .ci/run
// checks docs/workflow.yml with actionlint. They must be the same workflow.
func TestTheREADMEsWorkflowIsTheOneCIChecks(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("../../docs/workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```yaml\nname: Clarify\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("the README has no ```yaml block starting with name: Clarify")
	}
	var fromReadme, fromFile map[string]any
	if err := yaml.Unmarshal([]byte("name: Clarify\n"+block), &fromReadme); err != nil {
		t.Fatalf("the README's workflow: %v", err)
	}
	if err := yaml.Unmarshal(file, &fromFile); err != nil {
		t.Fatalf("docs/workflow.yml: %v", err)
	}
	if !reflect.DeepEqual(fromReadme, fromFile) {
		t.Errorf("the README's workflow differs from docs/workflow.yml:\nREADME: %v\nfile:   %v", fromReadme, fromFile)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil || !strings.Contains(string(ci), "actionlint@v") || !strings.Contains(string(ci), "docs/workflow.yml") {
		t.Errorf(".ci/run does not run a pinned actionlint on docs/workflow.yml")
	}
}
