package fakegithub

import (
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

// TestPushedAtMovesOnEveryPush: a payload's repository carries pushed_at, which GitHub
// moves on every push to any of the repository's branches (a file written on the web, a
// pull request's branch in it) and not on a push to a fork's; the repository read through
// the API says the same.
func TestPushedAtMovesOnEveryPush(t *testing.T) {
	f := newFixture(t)
	f.s.OpenPullRequest(testRepo, 50, "Same-repository branch", "alice")
	f.s.OpenPullRequestWith(testRepo, 51, "From a fork", "alice", "", PullOptions{Fork: true})
	pushedAt := func() time.Time {
		t.Helper()
		d, _ := f.s.Comment(testRepo, 42, "alice", "Any news?")
		ev := parseEvent(t, d).(*github.IssueCommentEvent)
		r, _, err := f.client.Repositories.Get(f.ctx, "octo", "widgets")
		if err != nil {
			t.Fatal(err)
		}
		if !r.GetPushedAt().Equal(ev.GetRepo().GetPushedAt()) || ev.GetRepo().GetDefaultBranch() != "main" {
			t.Fatalf("the API says pushed_at %v, the payload %v (default branch %q)", r.GetPushedAt(), ev.GetRepo().GetPushedAt(), ev.GetRepo().GetDefaultBranch())
		}
		return ev.GetRepo().GetPushedAt().Time
	}
	was := pushedAt()
	if was.IsZero() {
		t.Fatal("a payload's repository carries no pushed_at")
	}
	for _, push := range []struct {
		name  string
		do    func()
		moves bool
	}{
		{"a comment", func() { f.s.Comment(testRepo, 42, "alice", "Still waiting.") }, false},
		{"a file written", func() { f.s.SetFile(testRepo, ".github/clarify.yml", "sla: 1h\n") }, true},
		{"a file written in the same second", func() { f.s.SetFile(testRepo, ".github/clarify.yml", "sla: 2h\n") }, true},
		{"a push to the pull request's branch", func() { f.s.PushToPullRequest(testRepo, 50, "alice") }, true},
		{"a push to a fork's branch", func() { f.s.PushToPullRequest(testRepo, 51, "alice") }, false},
	} {
		push.do()
		now := pushedAt()
		if moved := now.After(was); moved != push.moves {
			t.Fatalf("after %s pushed_at went from %v to %v; moved: %v, want %v", push.name, was, now, moved, push.moves)
		}
		was = now
	}
}
