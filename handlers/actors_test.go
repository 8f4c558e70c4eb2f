package handlers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// TestTheAppsOwnLoginNeverSpeaksForTheRepository: in bot action the app's login is
// github-actions[bot], every workflow's; a comment of that account that is not the app's own
// (an agent running in a workflow, or a workflow an outsider started) has a bot's standing
// without write access, whatever GitHub says the token may do, and costs no look-up.
func TestTheAppsOwnLoginNeverSpeaksForTheRepository(t *testing.T) {
	m := newCaches(time.Now)
	a := newActorLookups(nil, clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 42}, &m, "github-actions[bot]")
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

// TestARepositorysOwnerNeedsNoLookUp: in a repository a person owns, that person
// administers it, and their standing costs no request; anyone else's is asked of GitHub.
func TestARepositorysOwnerNeedsNoLookUp(t *testing.T) {
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		_, _ = io.WriteString(w, `{"permission":"read","user":{"login":"rex","type":"User"}}`)
	}))
	defer srv.Close()
	client := github.NewClient(srv.Client())
	client.BaseURL, _ = url.Parse(srv.URL + "/")
	m := newCaches(time.Now)
	a := newActorLookups(client, clarify.IssueRef{Owner: "maria", Repo: "widgets", Number: 42}, &m, "github-actions[bot]")
	act, err := a.now(context.Background(), "Maria")
	if err != nil || len(asked) != 0 {
		t.Fatalf("the owner's standing asked GitHub %v (%v), want nothing", asked, err)
	}
	if p := clarify.DefaultPolicy(); !p.HasStanding(act) || !clarify.MayChangeDecisions(act) {
		t.Errorf("the repository's owner has no standing: %+v", act)
	}
	if perm, err := a.permission(context.Background(), "rex"); err != nil || perm != "read" || len(asked) != 1 {
		t.Errorf("rex's permission = %q (%v) after asking %v, want read, asked once", perm, err, asked)
	}
}
