package handlers_test

import (
	"net/http"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// A check run belongs to a commit, not to a pull request: two open pull requests with the
// same head share it. These tests hold the rule that decides it from all of them: it fails
// while any of them links the blocked issue, and passes only once none does.

// openPRWith opens pull request number by author with body, shaped by o, and sends its delivery.
func (w *driver) openPRWith(number int, author, body string, o fakegithub.PullOptions) {
	w.t.Helper()
	if st := w.send(w.h.Fake.OpenPullRequestWith(repo, number, "Rate-limit per API key", author, body, o)); st != http.StatusOK {
		w.t.Fatalf("pull_request.opened answered %d", st)
	}
}

func TestAnotherPullRequestOfTheSameCommitCannotPassABlockedIssuesCheck(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.AddUser("drive-by", "User")
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	w.openPR(7, "Fixes #42")
	// An outsider forks the same commit, links #42, then stops linking it.
	w.openPRWith(8, "drive-by", "Fixes #42", fakegithub.PullOptions{Fork: true, HeadOf: 7})
	w.send(w.h.Fake.EditPullRequestBody(repo, 8, "drive-by", "Just a copy."))
	cr := w.check(7, 42)
	t.Logf("Clarify: #42 on the maintainer's pull request after a pull request of the same commit stopped linking #42, CLR-42-001 pending: %s (before the fix: success)", cr.Conclusion)
	if cr.Conclusion != "failure" {
		t.Fatalf("another pull request of the same commit passed the check of a blocked issue: %+v", cr)
	}
	// Closing the copy changes nothing either.
	w.send(w.h.Fake.ClosePullRequest(repo, 8, "drive-by"))
	if cr := w.check(7, 42); cr.Conclusion != "failure" {
		t.Fatalf("closing another pull request of the same commit passed the check: %+v", cr)
	}
	w.replayAll()
}

func TestACheckPassesOnceNoPullRequestOfTheCommitLinksTheIssue(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	w.openPR(7, "Rate-limit per API key.")
	// The other way: a duplicate of the same commit links #42, and fails the commit's check.
	w.openPRWith(8, "coder-agent", "Fixes #42", fakegithub.PullOptions{HeadOf: 7})
	if cr := w.check(7, 42); cr.Conclusion != "failure" {
		t.Fatalf("a blocked issue linked by a pull request of the commit: %+v", cr)
	}
	// Once it is closed, no open pull request of the commit links #42: the check passes.
	w.send(w.h.Fake.ClosePullRequest(repo, 8, "coder-agent"))
	cr := w.check(7, 42)
	t.Logf("Clarify: #42 on a pull request that never linked #42, once the only pull request of its commit linking it closed: %s (before the fix: failure)", cr.Conclusion)
	if cr.Conclusion != "success" {
		t.Fatalf("no open pull request of the commit links #42 any more, yet: %+v", cr)
	}
}

// TestAPullRequestThatItselfStopsLinkingAnIssuePasses is the guard: with no other pull
// request of its commit, an edit that stops linking the issue passes its check.
func TestAPullRequestThatItselfStopsLinkingAnIssuePasses(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?")
	w.openPR(7, "Fixes #42")
	w.send(w.h.Fake.EditPullRequestBody(repo, 7, "coder-agent", "Refs #42"))
	cr := w.check(7, 42)
	t.Logf("Clarify: #42 after the pull request itself stopped linking #42: %s", cr.Conclusion)
	if cr.Conclusion != "success" {
		t.Fatalf("the pull request no longer links #42: %+v", cr)
	}
}
