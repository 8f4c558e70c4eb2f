package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// TestTheAppsOwnLoginNeverSpeaksForTheRepository: in bot action the app's login is
// github-actions[bot], every workflow's; a comment of that account that is not the app's own
// (an agent running in a workflow, or a workflow an outsider started) has a bot's standing
// without write access, whatever GitHub says the token may do, and costs no look-up.
func TestTheAppsOwnLoginNeverSpeaksForTheRepository(t *testing.T) {
	m := newMemories(time.Now)
	a := newActorLookups(nil, issueRef{Owner: "octo", Repo: "widgets", Number: 42}, &m, "github-actions[bot]")
	act, err := a.now(context.Background(), "GitHub-Actions[bot]")
	if err != nil {
		t.Fatal(err) // a request would have failed: there is no client
	}
	if p := clarify.DefaultPolicy(); p.HasStanding(act) || clarify.MayChangeDecisions(act) {
		t.Errorf("the app's shared login has standing: %+v", act)
	}
	if perm, err := a.permission(context.Background(), "github-actions[bot]"); err != nil || perm != "none" {
		t.Errorf("permission of the app's shared login = %q (%v), want none without asking", perm, err)
	}
}
