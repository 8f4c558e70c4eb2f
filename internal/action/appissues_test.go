package action_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// labelled is the issue the label name names.
func (b *bench) labelled(name string) int {
	b.t.Helper()
	_, desc, ok := b.fake.RepoLabel(repo, name)
	m := regexp.MustCompile(`issue #([0-9]+)`).FindStringSubmatch(desc)
	if !ok || m == nil {
		b.t.Fatalf("label %s names no issue: %q", name, desc)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestADashboardLabelPointedAtAnotherWorkflowsIssueIsNotFollowed: another workflow of the
// repository keeps an open issue of its own, written as github-actions[bot] like the app's;
// someone points the label clarify:dashboard at it. The next run leaves that issue as it
// is, makes a dashboard of the app's, points the label there and says so in its log; and
// the dashboard keeps working from there.
func TestADashboardLabelPointedAtAnotherWorkflowsIssueIsNotFollowed(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "dashboard: true\n")
	const report = "Nightly build: 3 flaky tests.\n"
	b.fake.OpenIssueWithBody(repo, 90, "Nightly report", fakegithub.ActionsBotLogin, report)
	b.fake.SetLabel(repo, "clarify:dashboard", "ededed", "Clarify's dashboard: issue #90")

	_, r := b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	if got := b.fake.IssueBody(repo, 90); got != report {
		t.Fatalf("bot action overwrote another workflow's issue #90:\n%s", got)
	}
	n := b.labelled("clarify:dashboard")
	if n == 90 || !strings.Contains(b.fake.IssueBody(repo, n), "[CLR-42-001](../issues/42)") {
		t.Fatalf("the label names #%d, want a dashboard of the app's listing CLR-42-001:\n%s", n, b.fake.IssueBody(repo, n))
	}
	if !strings.Contains(r.logs, "not provably the app's") {
		t.Errorf("the run's log does not say the label was not followed:\n%s", r.logs)
	}

	// The legitimate path: the next run writes into the app's dashboard, and no other.
	b.fake.OpenIssue(repo, 60, "Second", "maria")
	d, _ := b.fake.Comment(repo, 60, "coder-agent", "/clarify @maria Which region?")
	b.ok("issue_comment", b.eventFile(d))
	if got := b.labelled("clarify:dashboard"); got != n || !strings.Contains(b.fake.IssueBody(repo, n), "[CLR-60-001](../issues/60)") {
		t.Errorf("after a second ask the label names #%d (want #%d) and it reads:\n%s", got, n, b.fake.IssueBody(repo, n))
	}
	if got := b.fake.IssueBody(repo, 90); got != report {
		t.Errorf("#90 was written after all:\n%s", got)
	}
}

// TestADashboardLabelPointedAtAPullRequestIsNotFollowed: a pull request a workflow opened
// (github-actions[bot]) whose body is a copy of the app's signed dashboard is still no
// dashboard of the app's.
func TestADashboardLabelPointedAtAPullRequestIsNotFollowed(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "dashboard: true\n")
	b.comment("coder-agent", "/clarify @maria Per key or per IP?")
	real := b.labelled("clarify:dashboard")
	copied := b.fake.IssueBody(repo, real)
	b.fake.OpenPullRequestWithBody(repo, 91, "Bump deps", fakegithub.ActionsBotLogin, copied)
	b.fake.SetLabel(repo, "clarify:dashboard", "ededed", "Clarify's dashboard: issue #91")

	b.fake.OpenIssue(repo, 60, "Second", "maria")
	d, _ := b.fake.Comment(repo, 60, "coder-agent", "/clarify @maria Which region?")
	b.ok("issue_comment", b.eventFile(d))
	if got := b.fake.IssueBody(repo, 91); got != copied {
		t.Errorf("bot action wrote into pull request #91:\n%s", got)
	}
	if n := b.labelled("clarify:dashboard"); n == 91 {
		t.Errorf("the label still names the pull request")
	}
}
