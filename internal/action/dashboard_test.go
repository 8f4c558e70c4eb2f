package action_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/render"
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
		if strings.Contains(desc, "issue #"+strconv.Itoa(n)+" ") {
			body = b.fake.IssueBody("octo/widgets", n)
		}
	}
	if !strings.Contains(body, "### Open (1)") || !strings.Contains(body, "[CLR-42-001](../issues/42)") {
		t.Errorf("the dashboard the workflow wrote (label %q):\n%s", desc, body)
	}
}

// TestTwoRunsAtOnceKeepBothOnTheDashboard: asks in two issues run at once (two
// concurrency groups), each writing the dashboard from its own read; run A's write is held
// until run B's has landed. Afterwards the one open dashboard lists both questions: when
// both runs make the repository's dashboard, and when both edit it.
func TestTwoRunsAtOnceKeepBothOnTheDashboard(t *testing.T) {
	cases := map[string]struct {
		earlier bool
		held    func(r *http.Request, dashboard int) bool
	}{
		"both make it": {held: func(r *http.Request, _ int) bool {
			return r.Method == http.MethodPost && r.URL.Path == "/repos/octo/widgets/labels"
		}},
		"both edit it": {earlier: true, held: func(r *http.Request, dashboard int) bool {
			return r.Method == http.MethodPatch && r.URL.Path == "/repos/octo/widgets/issues/"+strconv.Itoa(dashboard)
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.settle = 150 * time.Millisecond
			b.fake.SetFile(repo, ".github/clarify.yml", "dashboard: true\n")
			want := []string{"CLR-50-001", "CLR-51-001"}
			if tc.earlier {
				b.comment("coder-agent", "/clarify @maria Per key or per IP?")
				want = append(want, "CLR-42-001")
			}
			dashboard, _ := b.dashboard()
			b.fake.OpenIssue(repo, 50, "Issue 50", "maria")
			b.fake.OpenIssue(repo, 51, "Issue 51", "maria")
			dA, _ := b.fake.Comment(repo, 50, "coder-agent", "/clarify @maria Per key or per IP?")
			dB, _ := b.fake.Comment(repo, 51, "coder-agent", "/clarify @maria Per key or per IP?")
			b.heldAtOnce(func(r *http.Request) bool { return tc.held(r, dashboard) }, dA, dB)
			n, body := b.dashboard()
			for _, id := range want {
				if !strings.Contains(body, id) {
					t.Errorf("the dashboard #%d lacks %s:\n%s", n, id, body)
				}
			}
			open := 0
			for _, is := range b.fake.Issues(repo) {
				if b.fake.IssueTitle(repo, is) == render.DashboardTitle && b.fake.IssueState(repo, is) == "open" {
					open++
				}
			}
			if open != 1 {
				t.Errorf("%d open dashboards, want the one the label names (#%d)", open, n)
			}
		})
	}
}

// dashboard is the issue the label clarify:dashboard names, and its body (0 and "" for none).
func (b *bench) dashboard() (int, string) {
	_, desc, ok := b.fake.RepoLabel(repo, "clarify:dashboard")
	if !ok {
		return 0, ""
	}
	m := regexp.MustCompile(`issue #([0-9]+)`).FindStringSubmatch(desc)
	if m == nil {
		return 0, ""
	}
	n, _ := strconv.Atoi(m[1])
	return n, b.fake.IssueBody(repo, n)
}
