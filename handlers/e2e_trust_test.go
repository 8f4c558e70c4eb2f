package handlers_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
)

// sendAll sends deliveries one after the other without waiting for the app to handle
// any, as GitHub does, then waits for all of them.
func sendAll(t *testing.T, w *driver, ds ...fakegithub.Delivery) {
	t.Helper()
	for _, d := range ds {
		if _, err := fakegithub.Send(context.Background(), w.h.AppServer.Client(), w.h.HookURL(), w.h.Secret, d); err != nil {
			t.Fatal(err)
		}
	}
	w.h.App.Scheduler.Wait()
}

func TestAReplyOrACloseDeliveredBeforeTheLabelIsNotDropped(t *testing.T) {
	worlds := map[string]func(t *testing.T) *driver{
		"unpaced": func(t *testing.T) *driver { return &driver{t: t, h: newHarness(t)} },
		// Writes paced at 4 a quarter of a second (a shortened minute), with the allowance
		// already spent in another issue: the ask's run is held back, and the reply and the
		// close arrive inside it.
		"paced": func(t *testing.T) *driver {
			w := &driver{t: t, h: newHarnessWith(t, func(c *app.Config) {
				c.Clarify.WritesPerMinute, c.PaceMinute = 4, 250*time.Millisecond
			})}
			w.h.Fake.OpenIssue(repo, 43, "Another", "maria")
			for _, q := range []string{"Which region?", "Which zone?", "Which rack?"} {
				d, _ := w.h.Fake.Comment(repo, 43, "coder-agent", "/clarify @maria "+q)
				w.send(d)
			}
			return w
		},
	}
	for name, newWorld := range worlds {
		t.Run(name+"/reply", func(t *testing.T) {
			w := newWorld(t)
			ask, _ := w.h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Per key or per IP?")
			// The reply's payload shows no label: the app has not labelled the issue yet.
			reply, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
			sendAll(t, w, ask, reply)
			if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
				t.Fatalf("status %s, want answered: the reply was dropped by the cheap filter", c.Status)
			}
		})
		t.Run(name+"/close", func(t *testing.T) {
			w := newWorld(t)
			ask, _ := w.h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Per key or per IP?")
			closed := w.h.Fake.CloseIssue(repo, 42, "maria")
			sendAll(t, w, ask, closed)
			if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned || w.labels() != "" {
				t.Fatalf("status %s, labels %q: want abandoned and no label on the closed issue", c.Status, w.labels())
			}
		})
	}
}

func TestTheSweepSettlesAClosedIssueThatStillCarriesTheActiveLabel(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.CloseIssue(repo, 42, "maria") // its delivery never arrives
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned || w.labels() != "" {
		t.Fatalf("status %s, labels %q: want abandoned and no label", c.Status, w.labels())
	}
}

func TestOneFailingIssueNeverStopsTheSweepOfTheOthers(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.OpenIssue(repo, 43, "Another", "maria")
	d, _ := w.h.Fake.Comment(repo, 43, "coder-agent", "/clarify @maria Which region?")
	w.send(d)
	w.h.Fake.Advance(31 * time.Minute)
	// #42 is swept first, and its comments cannot be read.
	w.h.Fake.FailNext("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", http.StatusNotFound, 1)
	stats, err := w.h.Sweep(context.Background())
	if err == nil || stats.Failed != 1 {
		t.Errorf("sweep: %v, %d failed; want the failure reported after the whole pass", err, stats.Failed)
	}
	pinged := 0
	for _, c := range w.h.Fake.Comments(repo, 43) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, "Still waiting") {
			pinged++
		}
	}
	if pinged != 1 {
		t.Errorf("#43 got %d stale pings, want 1 despite #42's failure", pinged)
	}
	// The next sweep takes #42 up again.
	if _, err := w.h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Stale {
		t.Errorf("#42 is %s after the next sweep, want stale", c.Status)
	}
}

func TestAConfigReadThatFailsOnTheWayKeepsTheRepositorysPolicy(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.AddUser("arch", "User")
	w.h.Fake.SetPermission(repo, "arch", "write")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "roles:\n  architect: [arch]\n")
	w.comment("coder-agent", "/clarify architect Can the API be split?")
	w.h.Fake.Advance(10 * time.Minute) // past the config cache
	// GitHub refuses the token's read of the file: not the file's fault.
	w.h.Fake.FailNext("GET /repos/{owner}/{repo}/contents/{path}", http.StatusUnauthorized, 5)
	w.comment("coder-agent", "/clarify architect And version it first?")
	l := w.ledger()
	if len(l.Clarifications) != 2 || l.Clarifications[1].Target.Name != "architect" {
		t.Fatalf("the second ask was not taken under the repository's roles: %+v", l.Clarifications)
	}
	if n := w.botComments("configuration"); n != 0 {
		t.Errorf("%d comment(s) blame the configuration for GitHub's refusal", n)
	}
}

func TestThePublishedMACOfALedgerIsBoundToItsIssueAndNotToTheWebhookSecret(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	_, body := w.statusComment()
	fromSecret := hmac.New(sha256.New, []byte(w.h.Config.Github.App.WebhookSecret))
	fromSecret.Write([]byte("clarify ledger key v1"))
	if _, err := render.DecodeLedger(body, fromSecret.Sum(nil)); err == nil {
		t.Error("the published MAC verifies under a key drawn from the webhook secret: an offline oracle for it")
	}
	if _, err := render.DecodeLedger(body, w.h.Config.LedgerKeyBytes()); err == nil {
		t.Error("the published MAC verifies under the app's key itself: it is not bound to its issue")
	}
	if _, err := render.DecodeLedger(body, issueKey(w.h)); err != nil {
		t.Errorf("the ledger does not verify under its issue's key: %v", err)
	}
}

func TestAStatusBodyPastedFromAnotherIssueIsRebuiltNotTrusted(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.OpenIssue(repo, 43, "Another", "maria")
	d, _ := w.h.Fake.Comment(repo, 43, "coder-agent", "/clarify @maria Which region?")
	w.send(d)
	var other string
	for _, c := range w.h.Fake.Comments(repo, 43) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			other = c.Body
		}
	}
	id, _ := w.statusComment()
	w.send(w.h.Fake.EditComment(repo, id, "maria", other))
	l := w.ledger()
	if c, ok := l.Find("CLR-42-001"); !ok || c.Status != clarify.Pending || len(l.Clarifications) != 1 {
		t.Fatalf("after #43's status body was pasted into #42: %+v", l.Clarifications)
	}
	if n := w.botComments("rebuilt the ledger"); n != 1 {
		t.Errorf("%d rebuild notices, want 1", n)
	}
}

func TestALedgerSignedBeforeAnUpgradeIsReSignedWithoutARebuild(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	id, body := w.statusComment()
	l, err := render.DecodeLedger(body, issueKey(w.h))
	if err != nil {
		t.Fatal(err)
	}
	legacy := w.h.Config.PreviousLedgerKeys()
	block, err := render.EncodeLedger(l, legacy[len(legacy)-1])
	if err != nil {
		t.Fatal(err)
	}
	w.h.Fake.EditComment(repo, id, "clarify[bot]", render.Status(l, block)) // as an earlier version wrote it
	w.comment("maria", "Per key.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status %s, want answered", c.Status)
	}
	if n := w.botComments("rebuilt the ledger"); n != 0 {
		t.Errorf("%d rebuild notices for a ledger signed with the earlier key", n)
	}
}

func TestAnOlderStatusBodyPutBackFromTheEditHistoryIsRebuiltNotTrusted(t *testing.T) {
	// How the app hears of the edit: its delivery; never (lost while the app runs, which
	// remembers the revision it wrote); or its delivery after a restart, whose payload
	// carries the body it replaced.
	hears := map[string]func(w *driver, edit fakegithub.Delivery){
		"delivered": func(w *driver, edit fakegithub.Delivery) { w.send(edit) },
		"lost":      func(w *driver, edit fakegithub.Delivery) { w.h.Drop(edit) },
		"afterARestart": func(w *driver, edit fakegithub.Delivery) {
			w.h.Stop()
			w.send(edit) // GitHub logs it as failed
			if _, err := w.h.Start(context.Background()); err != nil {
				w.t.Fatal(err)
			}
		},
	}
	for name, hear := range hears {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			id, older := w.statusComment()
			w.comment("maria", "Per key.")
			answered := w.ledger()
			if c, _ := answered.Find("CLR-42-001"); c.Status != clarify.Answered {
				t.Fatalf("status %s, want answered", c.Status)
			}
			// An admin puts back the body from before the answer: it verifies, it is older.
			hear(w, w.h.Fake.EditComment(repo, id, "maria", older))
			w.comment("coder-agent", "/clarify followup CLR-42-001 Per key: how many a minute?")

			l := w.ledger()
			if c, _ := l.Find("CLR-42-001"); c.Status != clarify.Pending || c.Round != 2 {
				t.Errorf("CLR-42-001 is %s in round %d, want pending in round 2: the answer is back and the follow-up taken", c.Status, c.Round)
			}
			if l.Rev <= answered.Rev {
				t.Errorf("rev %d after the rebuild, want above %d, the newest the app wrote", l.Rev, answered.Rev)
			}
			if n := w.botComments("put back to an older version"); n != 1 {
				t.Errorf("%d rebuild notices, want 1", n)
			}
			// The status comment, two rounds and the notice: nothing posted twice.
			if n := w.botComments(""); n != 4 {
				t.Errorf("%d comments by the app, want 4:\n%s", n, w.h.Fake.Transcript(repo, 42))
			}
			w.replayAll()
		})
	}
}
