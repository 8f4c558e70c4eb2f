package fakegithub

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-github/v60/github"
)

func TestPullRequestsAndTheirCheckRuns(t *testing.T) {
	f := newFixture(t)
	checkOpenedPull(t, f)
	sha := f.s.PullHead(testRepo, 7)
	checkCheckRunsOn(t, f, sha)
	checkPushAndBodyEdit(t, f, sha)
}

// checkOpenedPull opens #7 "Fixes #42" and wants its opened delivery and the open pulls
// list to carry the head, the body and the base branch.
func checkOpenedPull(t *testing.T, f *fixture) {
	t.Helper()
	d := f.s.OpenPullRequestWithBody(testRepo, 7, "Use UTC", "alice", "Fixes #42")
	var opened github.PullRequestEvent
	if err := json.Unmarshal(d.Body, &opened); err != nil || d.Event != "pull_request" || opened.GetAction() != "opened" ||
		opened.GetPullRequest().GetHead().GetSHA() != f.s.PullHead(testRepo, 7) || opened.GetPullRequest().GetBody() != "Fixes #42" {
		t.Fatalf("opened delivery: %s %v %s", d.Event, err, d.Body)
	}
	pulls, _, err := f.client.PullRequests.List(f.ctx, "octo", "widgets", &github.PullRequestListOptions{State: "open"})
	if err != nil || len(pulls) != 1 || pulls[0].GetNumber() != 7 || pulls[0].GetBase().GetRef() != "main" ||
		pulls[0].GetBase().GetRepo().GetDefaultBranch() != "main" {
		t.Fatalf("open pulls: %v %+v", err, pulls)
	}
}

// checkCheckRunsOn creates a failing "Clarify: #42" check run on sha, wants the 422s GitHub
// gives for an unknown commit and a missing conclusion, then turns it to success and lists it.
func checkCheckRunsOn(t *testing.T, f *fixture, sha string) {
	t.Helper()
	failure, title, summary := "failure", "Waiting", "CLR-42-001"
	run, _, err := f.client.Checks.CreateCheckRun(f.ctx, "octo", "widgets", github.CreateCheckRunOptions{Name: "Clarify: #42", HeadSHA: sha,
		Status: github.String("completed"), Conclusion: &failure, Output: &github.CheckRunOutput{Title: &title, Summary: &summary}})
	if err != nil || run.GetConclusion() != "failure" || run.GetApp().GetSlug() != "clarify" {
		t.Fatalf("create: %v %+v", err, run)
	}
	if _, _, err := f.client.Checks.CreateCheckRun(f.ctx, "octo", "widgets", github.CreateCheckRunOptions{Name: "x", HeadSHA: "0000",
		Status: github.String("completed"), Conclusion: &failure}); statusOf(err) != http.StatusUnprocessableEntity {
		t.Errorf("a check run on an unknown commit: %v, want 422", err)
	}
	if _, _, err := f.client.Checks.CreateCheckRun(f.ctx, "octo", "widgets", github.CreateCheckRunOptions{Name: "x", HeadSHA: sha,
		Status: github.String("completed")}); statusOf(err) != http.StatusUnprocessableEntity {
		t.Errorf("a completed check run without a conclusion: %v, want 422", err)
	}

	success := "success"
	if _, _, err := f.client.Checks.UpdateCheckRun(f.ctx, "octo", "widgets", run.GetID(), github.UpdateCheckRunOptions{Name: "Clarify: #42",
		Conclusion: &success}); err != nil {
		t.Fatal(err)
	}
	list, _, err := f.client.Checks.ListCheckRunsForRef(f.ctx, "octo", "widgets", sha, &github.ListCheckRunsOptions{CheckName: github.String("Clarify: #42")})
	if err != nil || list.GetTotal() != 1 || list.CheckRuns[0].GetConclusion() != "success" || list.CheckRuns[0].GetOutput().GetTitle() != "Waiting" {
		t.Fatalf("list: %v %+v", err, list)
	}
}

// checkPushAndBodyEdit pushes to #7 (headed at sha) and edits its body, wanting a
// synchronize delivery from sha to the new head and an edited one with the old body.
func checkPushAndBodyEdit(t *testing.T, f *fixture, sha string) {
	t.Helper()
	push := f.s.PushToPullRequest(testRepo, 7, "alice")
	var pushed github.PullRequestEvent
	if err := json.Unmarshal(push.Body, &pushed); err != nil || pushed.GetAction() != "synchronize" || pushed.GetBefore() != sha ||
		pushed.GetAfter() != f.s.PullHead(testRepo, 7) || pushed.GetAfter() == sha {
		t.Fatalf("synchronize delivery: %v %s", err, push.Body)
	}
	edit := f.s.EditPullRequestBody(testRepo, 7, "alice", "Refs #42")
	var edited github.PullRequestEvent
	if err := json.Unmarshal(edit.Body, &edited); err != nil || edited.GetChanges().GetBody().GetFrom() != "Fixes #42" ||
		edited.GetPullRequest().GetBody() != "Refs #42" {
		t.Fatalf("edited delivery: %v %s", err, edit.Body)
	}
}

func TestDispatchDeliversTheClientPayloadAsSent(t *testing.T) {
	f := newFixture(t)
	d := f.s.Dispatch(testRepo, "alice", "clarify", json.RawMessage(`{"issue":42,"action":"ask"}`))
	var ev github.RepositoryDispatchEvent
	if err := json.Unmarshal(d.Body, &ev); err != nil || d.Event != "repository_dispatch" || ev.GetAction() != "clarify" ||
		string(ev.ClientPayload) != `{"issue":42,"action":"ask"}` || ev.GetSender().GetLogin() != "alice" ||
		ev.GetInstallation().GetID() != 1 || ev.GetBranch() != "main" {
		t.Fatalf("dispatch delivery: %v %s", err, d.Body)
	}
}

func TestAForkPullRequestOfAnotherOnesCommitAndItsClose(t *testing.T) {
	f := newFixture(t)
	f.s.OpenPullRequestWithBody(testRepo, 7, "Use UTC", "alice", "Fixes #42")
	d := f.s.OpenPullRequestWith(testRepo, 8, "Copy", "mallory", "Fixes #42", PullOptions{Fork: true, HeadOf: 7})
	var opened github.PullRequestEvent
	if err := json.Unmarshal(d.Body, &opened); err != nil {
		t.Fatal(err)
	}
	head := opened.GetPullRequest().GetHead()
	if head.GetSHA() != f.s.PullHead(testRepo, 7) || head.GetRepo().GetFullName() != "mallory/widgets" || !head.GetRepo().GetFork() ||
		opened.GetPullRequest().GetBase().GetRepo().GetFullName() != "octo/widgets" || opened.GetPullRequest().GetAuthorAssociation() != "NONE" {
		t.Fatalf("a fork's pull request of #7's commit: head %+v, association %s", head, opened.GetPullRequest().GetAuthorAssociation())
	}
	closed := f.s.ClosePullRequest(testRepo, 8, "mallory")
	var ev github.PullRequestEvent
	if err := json.Unmarshal(closed.Body, &ev); err != nil || ev.GetAction() != "closed" || ev.GetPullRequest().GetState() != "closed" ||
		ev.GetPullRequest().GetClosedAt().IsZero() {
		t.Fatalf("closed delivery: %v %s", err, closed.Body)
	}
	pulls, _, err := f.client.PullRequests.List(f.ctx, "octo", "widgets", &github.PullRequestListOptions{State: "open"})
	if err != nil || len(pulls) != 1 || pulls[0].GetNumber() != 7 {
		t.Fatalf("open pulls after the close: %v %+v", err, pulls)
	}
}
