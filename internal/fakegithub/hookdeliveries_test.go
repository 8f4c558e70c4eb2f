package fakegithub

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v60/github"
)

// appClient is a go-github client that authenticates as the App, with its JWT.
func appClient(t *testing.T, f *fixture) *github.Client {
	t.Helper()
	atr, err := ghinstallation.NewAppsTransport(http.DefaultTransport, testAppID, appKeyPEM(t))
	if err != nil {
		t.Fatal(err)
	}
	atr.BaseURL = f.srv.URL
	c := github.NewClient(&http.Client{Transport: atr})
	c.BaseURL, _ = url.Parse(f.srv.URL + "/")
	return c
}

func TestHookDeliveriesListNewestFirstByCursorAndRedeliverWithTheSameGUID(t *testing.T) {
	f := newFixture(t)
	sent := recordFiveDeliveries(t, f)
	c := appClient(t, f)
	got := listAllHookDeliveries(t, f, c)
	if len(got) != 5 || got[0].GetGUID() != sent[4].ID || got[4].GetGUID() != sent[0].ID {
		t.Fatalf("listed %d deliveries, want 5 newest first", len(got))
	}
	failed := got[1]
	if failed.GetGUID() != sent[3].ID || failed.GetStatusCode() != 0 || failed.GetStatus() == "OK" || failed.GetAction() != "created" || failed.GetInstallationID() != 1 {
		t.Errorf("the failed delivery is listed as %+v", failed)
	}
	if got[0].GetStatus() != "OK" || got[0].GetStatusCode() != http.StatusAccepted {
		t.Errorf("an answered delivery is listed as %s %d", got[0].GetStatus(), got[0].GetStatusCode())
	}
	checkRedeliveries(t, f, c, failed.GetID(), sent[3])
}

// recordFiveDeliveries records five comment deliveries a minute apart, all answered 202
// but the fourth, which the app never answered.
func recordFiveDeliveries(t *testing.T, f *fixture) []Delivery {
	t.Helper()
	var sent []Delivery
	for i := 0; i < 5; i++ {
		d, _ := f.s.Comment(testRepo, 42, "alice", "comment "+strconv.Itoa(i))
		status := http.StatusAccepted
		if i == 3 {
			status = 0 // the app was down
		}
		f.s.RecordDelivery(d, status, false)
		sent = append(sent, d)
		f.s.Advance(time.Minute)
	}
	return sent
}

// listAllHookDeliveries walks the App's deliveries two at a time by cursor, as go-github
// does; it gives up after a few pages so a cursor that never ends cannot hang the test.
func listAllHookDeliveries(t *testing.T, f *fixture, c *github.Client) []*github.HookDelivery {
	t.Helper()
	var got []*github.HookDelivery
	opts := &github.ListCursorOptions{PerPage: 2}
	for pages := 0; ; pages++ {
		page, resp, err := c.Apps.ListHookDeliveries(f.ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if resp.Cursor == "" || pages > 5 {
			break
		}
		opts.Cursor = resp.Cursor
	}
	return got
}

// checkRedeliveries redelivers the delivery listed as id and wants failed queued again with
// its GUID and body; an unknown id and an installation token are refused.
func checkRedeliveries(t *testing.T, f *fixture, c *github.Client, id int64, failed Delivery) {
	t.Helper()
	// GitHub answers 202, which go-github reports as an AcceptedError.
	var accepted *github.AcceptedError
	if _, _, err := c.Apps.RedeliverHookDelivery(f.ctx, id); !errors.As(err, &accepted) {
		t.Fatalf("redeliver: %v, want GitHub's 202 Accepted", err)
	}
	again := f.s.TakeRedeliveries()
	if len(again) != 1 || again[0].ID != failed.ID || string(again[0].Body) != string(failed.Body) {
		t.Fatalf("redelivery queued %+v, want the failed delivery with its GUID", again)
	}
	if _, _, err := c.Apps.RedeliverHookDelivery(f.ctx, 12345); err == nil || errors.As(err, &accepted) {
		t.Error("redelivering an unknown id succeeded")
	}
	if _, _, err := f.client.Apps.ListHookDeliveries(f.ctx, nil); err == nil {
		t.Error("an installation token listed the App's deliveries; GitHub wants the App JWT")
	}
}

func TestPullRequestsAndAssigneesShowInTheIssuesAPI(t *testing.T) {
	f := newFixture(t)
	f.s.OpenPullRequest(testRepo, 43, "Split the API", "alice")
	f.s.Assign(testRepo, 42, "bob", "carol")
	pr, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 43)
	if err != nil {
		t.Fatal(err)
	}
	is, _, err := f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	if err != nil {
		t.Fatal(err)
	}
	if !pr.IsPullRequest() || is.IsPullRequest() {
		t.Errorf("IsPullRequest: #43 %v, #42 %v", pr.IsPullRequest(), is.IsPullRequest())
	}
	if len(is.Assignees) != 2 || is.Assignees[0].GetLogin() != "bob" || is.GetAssignee().GetLogin() != "bob" {
		t.Errorf("assignees of #42: %+v", is.Assignees)
	}
}
