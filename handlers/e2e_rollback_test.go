package handlers_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/wire"
)

// putBack has another workflow of the repository, with its own token and issues: write,
// write body into the app's status comment through the REST API, as a body taken from the
// comment's edit history would be; the edit's delivery never reaches the app (lost in an
// outage of GitHub's own, never in the delivery log).
func (w *driver) putBack(id int64, body string) {
	w.t.Helper()
	client := github.NewClient(nil).WithAuthToken(w.h.Fake.WorkflowToken(repo))
	client.BaseURL, _ = url.Parse(w.h.GitHub.URL + "/")
	if _, _, err := client.Issues.EditComment(context.Background(), "octo", "widgets", id, &github.IssueComment{Body: &body}); err != nil {
		w.t.Fatal(err)
	}
	w.h.Fake.TakeOutbox()
}

// answeredWakeUps counts the clarify-answered dispatches sent.
func (w *driver) answeredWakeUps() int {
	n := 0
	for _, d := range w.h.Fake.Dispatches(repo) {
		if d.EventType == wire.WakeAnswered {
			n++
		}
	}
	return n
}

// TestAnOlderStatusBodyNobodyHeardOfWakesNobodyAgain: in App mode, another workflow puts
// back the status comment's body from before the answer while nothing tells the app: the
// edit's delivery never comes, and the app restarted since its save, so it remembers no
// revision. The next run (a drive-by's comment) does not take that ledger: the answer is
// kept and not woken for again, the revision saved is above the answer's, the issue says
// what happened, and the asker's follow-up is taken on top of the answer.
func TestAnOlderStatusBodyNobodyHeardOfWakesNobodyAgain(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	id, older := w.statusComment()
	w.h.Fake.Advance(10 * time.Minute)
	w.comment("maria", "Per key.")
	answered := w.ledger()

	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.h.Fake.Advance(10 * time.Minute)
	w.putBack(id, older)
	w.comment("drive-by", "Any news on this?")

	if n := w.answeredWakeUps(); n != 1 {
		t.Errorf("%d clarify-answered wake-ups for one answer, want 1", n)
	}
	l := w.ledger()
	if c, _ := l.Find("CLR-42-001"); c.Status != clarify.Answered || clarify.LastAnswer(c) != "Per key." {
		t.Errorf("CLR-42-001 is %s with answer %q, want the answer kept", c.Status, clarify.LastAnswer(c))
	}
	if l.Rev <= answered.Rev {
		t.Errorf("saved at revision %d, want above %d, which the answer's run saved", l.Rev, answered.Rev)
	}
	if n := w.botComments("put back to an older version"); n != 1 {
		t.Errorf("%d notices of the put-back body, want 1", n)
	}
	w.comment("coder-agent", "/clarify followup CLR-42-001 Per key: how many a minute?")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending || c.Round != 2 {
		t.Errorf("after the follow-up CLR-42-001 is %s in round %d, want pending in round 2", c.Status, c.Round)
	}
	if n := w.botComments("put back to an older version"); n != 1 {
		t.Errorf("%d notices of the put-back body after a further run, want still 1", n)
	}
}

// TestAnAppWhoseClockIsBehindGitHubsTakesItsOwnSaves: an app whose clock runs a minute
// behind GitHub's saves ledgers GitHub shows updated a minute after their time, within the
// tolerance (ledger.SaveSkew): its next runs take them, rebuild nothing and wake as usual.
func TestAnAppWhoseClockIsBehindGitHubsTakesItsOwnSaves(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.SetAppClockSkew(-time.Minute)
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.comment("maria", "Per key.")
	if n := w.botComments("rebuilt the ledger"); n != 0 {
		t.Errorf("%d rebuild notices for the app's own saves", n)
	}
	if n := w.answeredWakeUps(); n != 1 {
		t.Errorf("%d clarify-answered wake-ups, want 1", n)
	}
}
