package asker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// client is the agent's client through the API, as the MCP server and the doors build it.
func (w *world) client() *asker.Client {
	w.t.Helper()
	c, err := asker.New(asker.Options{API: w.h.GitHub.URL + "/", Token: w.token, Slug: "clarify",
		Transport: w.wire, Now: w.h.Fake.Now, Sleep: w.sleep})
	if err != nil {
		w.t.Fatal(err)
	}
	return c
}

var widgets42 = clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: issue}

// answered asks maria with two options and has her answer "b".
func (w *world) answered() string {
	w.t.Helper()
	id := w.ask("--option", "per API key", "--option", "per client IP")
	w.say(person, "b")()
	return id
}

func TestSettleEachKindByCommentAndByDispatch(t *testing.T) {
	kinds := map[clarify.CommandKind]struct {
		text   string
		status clarify.Status
		round  int
	}{
		clarify.CmdResolve:  {"per client IP, 100 a minute", clarify.Resolved, 1},
		clarify.CmdFollowup: {"Does that hold for cached reads too?", clarify.Pending, 2},
		clarify.CmdAbandon:  {"", clarify.Abandoned, 1},
	}
	for kind, want := range kinds {
		for _, dispatch := range []bool{false, true} {
			name := string(kind) + map[bool]string{false: "ByComment", true: "ByDispatch"}[dispatch]
			t.Run(name, func(t *testing.T) {
				w := newWorld(t)
				id := w.answered()
				dispatches := len(w.h.Fake.Dispatches(repo))
				c := w.client()
				w.wire.counts()
				rec, err := c.Settle(t.Context(), asker.Settle{Issue: widgets42, ID: id, Kind: kind, Text: want.text, Dispatch: dispatch})
				notModified, other, lines := w.wire.counts()
				t.Logf("%s: %d requests GitHub counts, %d answered 304\n  %s", name, other, notModified, strings.Join(lines, "\n  "))
				if err != nil || rec.ID != id || rec.Status != string(want.status) || rec.Round != want.round {
					t.Fatalf("Settle: %+v, %v; want %s %s in round %d", rec, err, id, want.status, want.round)
				}
				if kind == clarify.CmdResolve && rec.Decision != want.text {
					t.Errorf("the record's decision %q; want %q", rec.Decision, want.text)
				}
				l, err := w.h.Ledger(repo, issue)
				if err != nil || l.Clarifications[0].Status != want.status {
					t.Errorf("the app's ledger: %+v (%v); want %s", l.Clarifications, err, want.status)
				}
				if sent := len(w.h.Fake.Dispatches(repo)) - dispatches; (sent == 1) != dispatch {
					t.Errorf("%d dispatches sent; want one only when asked to dispatch", sent)
				}
			})
		}
	}
}

func TestARefusedSettleSaysWhy(t *testing.T) {
	for _, dispatch := range []bool{false, true} {
		w := newWorld(t)
		id := w.ask() // nobody answered: a follow-up is early
		_, err := w.client().Settle(t.Context(), asker.Settle{Issue: widgets42, ID: id, Kind: clarify.CmdFollowup,
			Text: "And cached reads?", Dispatch: dispatch})
		t.Logf("dispatch %v: %v", dispatch, err)
		var e *asker.Error
		if !errors.As(err, &e) || e.Code != clarify.CodeStillAwaiting || !strings.Contains(e.Msg, "still waiting for an answer to round 1") ||
			!strings.Contains(e.Msg, "resolve CLR-42-001") || strings.Contains(e.Msg, "Error code") || strings.Contains(e.Msg, "<!--") {
			t.Errorf("dispatch %v: a follow-up before the answer: %v; want %s with the reply's reason", dispatch, err, clarify.CodeStillAwaiting)
		}
	}
}

func TestABadIDIsRefusedBeforeAnyRequest(t *testing.T) {
	w := newWorld(t)
	c := w.client()
	for _, id := range []string{"CLR-41-001", "CLR-42", "CLR-42-x", "42-001", ""} {
		_, err := c.Settle(t.Context(), asker.Settle{Issue: widgets42, ID: id, Kind: clarify.CmdResolve})
		var e *asker.Error
		if !errors.As(err, &e) || e.Code != clarify.CodeUnknownID {
			t.Errorf("Settle of %q: %v; want %s", id, err, clarify.CodeUnknownID)
		}
		if !isID(id) {
			continue // not an id: Status reads it as a ref
		}
		if _, err := c.Status(t.Context(), widgets42, id); !errors.As(err, &e) || e.Code != clarify.CodeUnknownID {
			t.Errorf("Status of %q: %v; want %s", id, err, clarify.CodeUnknownID)
		}
	}
	if err := asker.CheckID(widgets42, "clr-42-1"); err != nil {
		t.Errorf("CheckID of clr-42-1 (as people type it): %v", err)
	}
	if notModified, other, lines := w.wire.counts(); notModified+other != 0 {
		t.Errorf("bad ids made requests: %v", lines)
	}
	if _, err := c.Settle(t.Context(), asker.Settle{Issue: widgets42, ID: "CLR-42-001", Kind: clarify.CmdFollowup}); err == nil {
		t.Error("a follow-up without its question was sent")
	}
}

func isID(s string) bool { return strings.HasPrefix(strings.ToUpper(s), "CLR-") }

func TestAnAskNotTakenComesBackPostedAndItsRetryIsAskedOnce(t *testing.T) {
	w := newWorld(t)
	c := w.client()
	w.pump = false // GitHub holds the deliveries back: no run has taken the ask yet
	a := asker.Ask{Issue: widgets42, Target: "@maria", Question: "Per API key or per client IP?", Timeout: 30 * time.Second}
	rec, err := c.Ask(t.Context(), a)
	if !errors.Is(err, asker.ErrNotTaken) || rec.Status != clarify.StatusPosted || !strings.HasPrefix(rec.Ref, "ask-") || rec.ID != "" {
		t.Fatalf("an ask nobody took: %+v, %v; want the posted record with its ref and ErrNotTaken", rec, err)
	}
	if _, found, err := c.ByRef(t.Context(), widgets42, rec.Ref); found || err != nil {
		t.Errorf("ByRef before Clarify took it: found %v, %v; want not found", found, err)
	}
	w.pump = true
	a.Ref = rec.Ref
	again, err := c.Ask(t.Context(), a)
	if err != nil || again.ID != "CLR-42-001" || again.Ref != rec.Ref {
		t.Fatalf("the retry with the ref: %+v, %v; want CLR-42-001", again, err)
	}
	_ = w.sleep(t.Context(), time.Second)
	w.onePending(c, rec.Ref)
}

// onePending checks that the issue holds one clarification, pending, the one of ref.
func (w *world) onePending(c *asker.Client, ref string) {
	w.t.Helper()
	if l, err := w.h.Ledger(repo, issue); err != nil || len(l.Clarifications) != 1 || l.Clarifications[0].Status != clarify.Pending {
		w.t.Errorf("the ledger: %+v (%v); want one pending clarification, not a repeat", l.Clarifications, err)
	}
	got, found, err := c.ByRef(w.t.Context(), widgets42, ref)
	if err != nil || !found || got.ID != "CLR-42-001" {
		w.t.Errorf("ByRef: %+v %v %v; want CLR-42-001", got, found, err)
	}
}

func TestStatusAndWaitFindAnAskByItsRef(t *testing.T) {
	w := newWorld(t)
	w.ask("--ref", "run-7/step-2")
	c := w.client()
	recs, err := c.Status(t.Context(), widgets42, "run-7/step-2")
	if err != nil || len(recs) != 1 || recs[0].ID != "CLR-42-001" {
		t.Fatalf("Status by ref: %+v, %v; want CLR-42-001", recs, err)
	}
	w.after(3*time.Minute, w.say(person, "Per API key."))
	rec, err := c.Wait(t.Context(), widgets42, "run-7/step-2", time.Hour)
	if err != nil || rec.ID != "CLR-42-001" || rec.Answer != "Per API key." {
		t.Errorf("Wait by ref: %+v, %v; want the answer", rec, err)
	}
	// A ref may be a dispatch's, which the issue shows only once Clarify takes it.
	if recs, err := c.Status(t.Context(), widgets42, "run-8"); !errors.Is(err, asker.ErrNotTaken) || len(recs) != 1 ||
		recs[0].Status != clarify.StatusPosted || recs[0].Ref != "run-8" {
		t.Errorf("Status of a ref nobody asked with yet: %+v, %v; want its posted record, not taken", recs, err)
	}
}

func TestARecordSaysTheChoiceThePageAndWhatToDoNext(t *testing.T) {
	w := newWorld(t)
	id := w.ask("--option", "per API key", "--option", "per client IP")
	c := w.client()
	recs, err := c.Status(t.Context(), widgets42, id)
	if err != nil || recs[0].Next != clarify.NextWait || recs[0].Choice != nil || len(recs[0].Options) != 2 {
		t.Fatalf("the pending record: %+v, %v; want next %q, two options, no choice", recs, err, clarify.NextWait)
	}
	w.say(person, "b) per client IP: the gateway keys by IP already")()
	recs, _ = c.Status(t.Context(), widgets42, id)
	r := recs[0]
	if r.Choice == nil || r.Choice.Key != "b" || r.Choice.Text != "per client IP" || r.Next != clarify.NextAct ||
		r.URL != w.h.GitHub.URL+"/octo/widgets/issues/42" {
		t.Errorf("the answered record: %+v (choice %+v); want choice b, next %q and the issue's page", r, r.Choice, clarify.NextAct)
	}
	r, err = c.Settle(t.Context(), asker.Settle{Issue: widgets42, ID: id, Kind: clarify.CmdResolve, Text: "per API key"})
	if err != nil || r.Choice == nil || r.Choice.Key != "a" || r.Next != "" {
		t.Errorf("the resolved record: %+v, %v; want the decision's choice a and nothing next", r, err)
	}
}

func TestASettleThatFailsOrIsNotTakenSaysSo(t *testing.T) {
	w := newWorld(t)
	id := w.answered()
	c := w.client()
	resolve := asker.Settle{Issue: widgets42, ID: id, Kind: clarify.CmdResolve, Timeout: 30 * time.Second}

	// The token may not comment, or may not dispatch.
	w.h.Fake.DenyNext("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", 1)
	if _, err := c.Settle(t.Context(), resolve); err == nil || !strings.Contains(err.Error(), "post /clarify resolve in octo/widgets#42") {
		t.Errorf("a comment GitHub refused: %v; want what failed", err)
	}
	w.h.Fake.DenyNext(fakegithub.RouteDispatches, 1)
	byDispatch := resolve
	byDispatch.Dispatch = true
	if _, err := c.Settle(t.Context(), byDispatch); err == nil || !strings.Contains(err.Error(), "as a repository_dispatch") {
		t.Errorf("a dispatch GitHub refused: %v; want what failed", err)
	}

	// Sent, but no run takes it.
	w.pump = false
	if _, err := c.Settle(t.Context(), resolve); !errors.Is(err, asker.ErrNotTaken) {
		t.Errorf("a resolve nobody took: %v; want ErrNotTaken", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	w.after(5*time.Second, cancel)
	if _, err := c.Settle(ctx, resolve); !errors.Is(err, context.Canceled) {
		t.Errorf("a resolve whose caller gave up: %v; want context.Canceled", err)
	}
	if l, _ := w.h.Ledger(repo, issue); l.Clarifications[0].Status != clarify.Answered {
		t.Errorf("%s is %s; want it still answered", id, l.Clarifications[0].Status)
	}
}
