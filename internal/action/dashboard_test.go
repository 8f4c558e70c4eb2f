package action_test

import (
	"strconv"
	"strings"
	"testing"
)

// TestTheDashboardInTheWorkflowMode: a workflow run ends with its process, so it writes
// the dashboard it noted before it ends, as the server's sweep would.
func TestTheDashboardInTheWorkflowMode(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile("octo/widgets", ".github/clarify.yml", "dashboard: true\n")
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	_, desc, ok := b.fake.RepoLabel("octo/widgets", "clarify:dashboard")
	if !ok {
		t.Fatal("no dashboard label after a workflow run on an ask")
	}
	var body string
	for _, n := range b.fake.Issues("octo/widgets") {
		if strings.HasSuffix(desc, "#"+strconv.Itoa(n)) {
			body = b.fake.IssueBody("octo/widgets", n)
		}
	}
	if !strings.Contains(body, "### Open (1)") || !strings.Contains(body, "[CLR-42-001](../issues/42)") {
		t.Errorf("the dashboard the workflow wrote (label %q):\n%s", desc, body)
	}
}
