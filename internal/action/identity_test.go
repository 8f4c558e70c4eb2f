package action_test

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestOwnCommentsStartRunsThatDoNothing: with an App token, Clarify's own comments start
// workflow runs; each sees its sender is Clarify and makes no request.
func TestOwnCommentsStartRunsThatDoNothing(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	own := b.fake.TakeOutbox()
	if len(own) == 0 {
		t.Fatal("Clarify's writes made no deliveries")
	}
	for _, d := range own {
		if d.Event != "issue_comment" {
			continue
		}
		r := b.ok(d.Event, b.eventFile(d))
		if r.requests != 0 || !strings.Contains(r.stdout, "Nothing to do") {
			t.Errorf("a run for Clarify's own comment made %d requests: %s", r.requests, r.stdout)
		}
	}
}

// TestTeamRolesNeedAnAppToken: GITHUB_TOKEN cannot read team membership, so a team's member
// without write access is not taken as the answer (the README says to use an App token).
func TestTeamRolesNeedAnAppToken(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "roles:\n  architect: [\"@octo/architects\"]\n")
	b.fake.AddUser("alice", "User")
	b.fake.AddTeamMember("octo", "architects", "alice")
	b.comment("coder-agent", "/clarify architect Per key or per IP?")
	b.comment("alice", "Per key.")
	if c := b.clar("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("a team member was taken as the answer through GITHUB_TOKEN: %s", c.Status)
	}
	b.comment("maria", "CLR-42-001: per key.") // write access answers, naming the clarification
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("maria's answer: %s", c.Status)
	}
}
