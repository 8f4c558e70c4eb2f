package handlers

import (
	"context"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestTheNoConfigHintHoldsOnlyWhereOneRepositoryIsRead: with a ledger's hint that there was
// no file as of the push the payload shows, bot action's loader (the repository's own file
// only) uses the defaults without a request; the App's loader, for which the organization's
// .github repository may hold the file (its pushes move nothing here), reads as ever; and
// either reads once the push differs.
func TestTheNoConfigHintHoldsOnlyWhereOneRepositoryIsRead(t *testing.T) {
	fake := fakegithub.New(fakegithub.Options{})
	fake.AddInstallation(1, "octo", "octo/widgets")
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	client := github.NewClient(nil).WithAuthToken(fake.WorkflowToken("octo/widgets"))
	client.BaseURL, _ = url.Parse(srv.URL + "/")
	pushed := clarify.Push{At: time.Date(2026, 11, 26, 7, 0, 0, 0, time.UTC), Branch: "main"}
	later := clarify.Push{At: pushed.At.Add(time.Minute), Branch: "main"}
	for name, tc := range map[string]struct {
		loader          *ConfigLoader
		push            clarify.Push
		trigger, newest int64
		reads           int
	}{
		"actionSamePush":  {NewRepoConfigLoader(0, fake.Now), pushed, 5, 5, 0},
		"actionPushSince": {NewRepoConfigLoader(0, fake.Now), later, 5, 5, 1},
		"actionNoPush":    {NewRepoConfigLoader(0, fake.Now), clarify.Push{}, 5, 5, 1},
		"appSamePush":     {NewConfigLoader(0, fake.Now), pushed, 5, 5, 1},
		// A reply made after the payload's comment, and after the hint's run looked: a
		// push may have come between.
		"actionSamePushALaterReply": {NewRepoConfigLoader(0, fake.Now), pushed, 5, 7, 1},
		// A reply the hint's own run had read before it found no file.
		"actionSamePushAReplyTheHintSaw": {NewRepoConfigLoader(0, fake.Now), pushed, 5, 6, 0},
	} {
		t.Run(name, func(t *testing.T) {
			fake.ResetRequests()
			cfg, err := tc.loader.loadAfter(context.Background(), client, "octo", "widgets", hintRun{none: clarify.NoConfigAt(pushed, 6), push: tc.push, trigger: tc.trigger, newest: tc.newest})
			if err != nil || !cfg.Missing {
				t.Fatalf("loadAfter = %+v, %v; want the defaults, the file missing", cfg, err)
			}
			if n := fake.CountRequests("GET /repos/{owner}/{repo}/contents/{path}"); n != tc.reads {
				t.Fatalf("%d reads of the config, want %d: %v", n, tc.reads, fake.Requests())
			}
		})
	}
}
