package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/render"
)

func TestAskAnswerFollowupResolve(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	ask := w.comment("coder-agent", "/clarify @maria Should the limit apply per API key or per client IP?\nOptions:\na) per API key\nb) per client IP\nFallback: a")
	w.wantAskedOnce(ask)
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels after ask = %q, want clarification:active", got)
	}

	w.wantReplyTakenAsAnswer(w.comment("maria", "Per API key: anonymous calls are blocked at the gateway."))

	w.comment("coder-agent", "/clarify followup CLR-42-001 Which limit per key: 100 or 1000 a minute?")
	if got := w.botComments("CLR-42-001 · round 2/5"); got != 1 {
		t.Fatalf("round 2 mirrored %d times, want once", got)
	}
	w.comment("maria", "1000 a minute, bursts of 100.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per key, 1000/min, bursts of 100.")
	w.wantResolvedAfterTwoRounds()
	w.noUnhandledRequests()
	w.replayAll()
}

// wantAskedOnce asserts that the ask in comment ask was mirrored once as round 1 and
// recorded as CLR-42-001, pending on maria with its options and fallback.
func (w *driver) wantAskedOnce(ask int64) {
	t := w.t
	t.Helper()
	if got := w.botComments("Clarification needed · CLR-42-001 · round 1/5 · blocking"); got != 1 {
		t.Fatalf("round 1 mirrored %d times, want once", got)
	}
	c, ok := w.ledger().Find("CLR-42-001")
	if !ok || c.Status != clarify.Pending || c.Round != 1 || c.Asker.Login != "coder-agent" || c.Target.Name != "maria" || len(c.Options) != 2 || c.Fallback != "a" {
		t.Fatalf("after ask: %+v", c)
	}
	if c.Thread[0].CommentID != ask {
		t.Errorf("question entry records comment %d, want %d", c.Thread[0].CommentID, ask)
	}
}

// wantReplyTakenAsAnswer asserts that maria's plain reply in comment answer answered
// CLR-42-001, got the app's +1 and was not copied into a comment of the app's.
func (w *driver) wantReplyTakenAsAnswer(answer int64) {
	t := w.t
	t.Helper()
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || c.Thread[1].Kind != clarify.KindAnswer || c.Thread[1].CommentID != answer {
		t.Fatalf("after answer: %+v", c)
	}
	if r := reactionsOn(w.h, answer); r != "+1:clarify[bot]" {
		t.Errorf("reaction on the answer = %q, want +1 by the app", r)
	}
	if w.botComments("Clarification needed") != 1 {
		t.Error("an answer typed as a reply must not be copied into a comment")
	}
}

// wantResolvedAfterTwoRounds asserts that CLR-42-001 ended resolved in round 2 with the
// whole thread, its label gone and one status comment edited in place.
func (w *driver) wantResolvedAfterTwoRounds() {
	t := w.t
	t.Helper()
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Resolved || c.Round != 2 || c.Resolution != "Per key, 1000/min, bursts of 100." {
		t.Fatalf("after resolve: %+v", c)
	}
	kinds := []clarify.EntryKind{}
	for _, e := range c.Thread {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != "[question answer question answer resolution]" {
		t.Errorf("thread = %v", kinds)
	}
	if got := w.labels(); got != "" {
		t.Errorf("labels after resolve = %q, want none", got)
	}
	if n := w.botComments("<!-- clarify:status "); n != 1 {
		t.Errorf("%d status comments, want 1 edited in place", n)
	}
}

func reactionsOn(h *replay.Harness, id int64) string {
	for _, c := range h.Fake.Comments(repo, 42) {
		if c.ID != id {
			continue
		}
		var out []string
		for content, who := range c.Reactions {
			out = append(out, content+":"+strings.Join(who, ","))
		}
		return strings.Join(out, ";")
	}
	return "(no such comment)"
}

func TestIneligibleRepliesMoveNothing(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	before := w.ledger()
	w.h.Fake.ResetRequests()

	w.comment("drive-by", "Per IP, obviously.")          // a drive-by commenter
	w.comment("drive-by", "CLR-42-001: per IP!")         // naming the id does not make them eligible
	w.comment("coder-agent", "I think per key is right") // the asker's own remark is no answer
	w.h.Fake.AddUser("other-bot", "Bot")
	w.comment("other-bot", "Per key.") // another bot's plain reply

	if got := w.ledger(); got.Clarifications[0].Status != clarify.Pending || len(got.Clarifications[0].Thread) != len(before.Clarifications[0].Thread) {
		t.Errorf("an ineligible reply moved the ledger: %+v", got.Clarifications[0])
	}
	if got := writes(w.h); len(got) != 0 {
		t.Errorf("an ineligible reply made the app write: %v", got)
	}
}

func TestCommandsOnlyFromNewUnquotedText(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	cases := []string{
		"> /clarify @maria quoted from an e-mail reply",
		"```\n/clarify @maria inside a code block\n```",
		"<!-- /clarify @maria inside an HTML comment -->",
	}
	for _, body := range cases {
		w.comment("coder-agent", body)
	}
	_, id := w.h.Fake.Comment(repo, 42, "coder-agent", "Just a note.")
	w.send(w.h.Fake.EditComment(repo, id, "coder-agent", "/clarify @maria added by an edit"))
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" {
			t.Fatalf("the app commented although no new comment held a command:\n%s", c.Body)
		}
	}
	if labels := w.labels(); labels != "" {
		t.Errorf("labels = %q", labels)
	}
}

func TestLookAlikeLedgerInSomeoneElsesCommentIsIgnored(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	_, status := w.statusComment()
	forged := strings.Replace(status, "pending", "resolved", -1)
	if !render.IsStatus(forged) {
		t.Fatal("test setup: expected to copy the status comment")
	}
	w.comment("maria", forged) // maria pastes a status comment look-alike
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status == clarify.Resolved {
		t.Fatal("a look-alike ledger in a user's comment was read")
	}
}

func TestLedgerFoundPastTheFirstPage(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	for i := 0; i < 130; i++ { // more than one page of 100 before the ask
		w.h.Fake.Comment(repo, 42, "drive-by", fmt.Sprintf("chatter %d", i))
	}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	for i := 0; i < 120; i++ {
		w.h.Fake.Comment(repo, 42, "drive-by", fmt.Sprintf("more chatter %d", i))
	}
	w.comment("maria", "Per key.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status = %s, want answered: the status comment sits on page 2", c.Status)
	}
	if n := w.botComments("<!-- clarify:status "); n != 1 {
		t.Errorf("%d status comments, want 1", n)
	}
}

func TestConcurrentDeliveriesForOneIssueApplyOneAtATime(t *testing.T) {
	h := newHarness(t)
	var ds []fakegithub.Delivery
	for i := 0; i < 6; i++ {
		d, _ := h.Fake.Comment(repo, 42, "coder-agent", fmt.Sprintf("/clarify @maria --non-blocking question %d?", i))
		ds = append(ds, d)
	}
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Add(1)
		go func(d fakegithub.Delivery) {
			defer wg.Done()
			if st, err := fakegithub.Send(context.Background(), h.AppServer.Client(), h.HookURL(), h.Secret, d); err != nil || st != http.StatusOK {
				t.Errorf("send: %d %v", st, err)
			}
		}(d)
	}
	wg.Wait()
	h.App.Scheduler.Wait()
	w := &driver{t: t, h: h}
	l := w.ledger()
	if len(l.Clarifications) != 6 {
		t.Fatalf("%d clarifications, want 6", len(l.Clarifications))
	}
	for i, c := range l.Clarifications {
		if want := fmt.Sprintf("question %d?", i); c.Thread[0].Text != want {
			t.Errorf("%s holds %q, want %q: the fold applies comments in order", c.ID, c.Thread[0].Text, want)
		}
		if got := w.botComments("Clarification needed · " + c.ID + " ·"); got != 1 {
			t.Errorf("%s mirrored %d times", c.ID, got)
		}
	}
}

func TestClosingAbandonsReopeningRevivesNothing(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Fatalf("after close: %s", c.Status)
	}
	if got := w.labels(); got != "" {
		t.Errorf("labels after close = %q", got)
	}
	w.send(w.h.Fake.ReopenIssue(repo, 42, "maria"))
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Abandoned {
		t.Fatalf("after reopen: %s", c.Status)
	}
	w.replayAll()
}

func TestAskAfterReopenIsTaken(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.send(w.h.Fake.CloseIssue(repo, 42, "maria"))
	w.send(w.h.Fake.ReopenIssue(repo, 42, "maria"))
	w.comment("coder-agent", "/clarify @maria Per key or per IP, now that it is reopened?")
	if c, ok := w.ledger().Find("CLR-42-002"); !ok || c.Status != clarify.Pending {
		t.Fatalf("an ask in the reopened issue was not taken: %+v", c)
	}
	if got := w.labels(); got != "clarification:active" {
		t.Errorf("labels %q", got)
	}
}

func TestRefusalSaysWhatToType(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify frobnicate CLR-42-001")
	w.comment("maria", "/respond Per key.")
	if n := w.botComments("> /clarify frobnicate CLR-42-001"); n != 1 {
		t.Errorf("refusal of the unknown command posted %d times, want once, quoting it", n)
	}
	if n := w.botComments("/respond Per key."); n != 1 {
		t.Errorf("a /respond with nothing awaiting got %d refusals, want 1", n)
	}
	w.replayAll()
}

func TestAFailedWriteIsRunAgainWithoutPostingTwice(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	// GitHub fails the status update of the answer's run once: the app runs the delivery
	// again by itself.
	w.h.Fake.FailNext("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", http.StatusBadGateway, 1)
	d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
	w.send(d)
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status %s, want answered after the run was tried again", c.Status)
	}
	if n := w.botComments("Clarification needed"); n != 1 {
		t.Errorf("round comment posted %d times", n)
	}
}

func TestFailedWriteHealsOnRedeliveryWithoutPostingTwice(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")

	// GitHub fails the status update of every attempt of every try of the answer's run:
	// the delivery fails after the reaction went out.
	w.h.Fake.FailNext("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", http.StatusBadGateway,
		ghtransport.DefaultRetryAttempts*(1+handlers.DefaultRunRetries))
	d, _ := w.h.Fake.Comment(repo, 42, "maria", "Per key.")
	w.send(d)
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Fatalf("status %s: the failed save should have left the ledger as it was", c.Status)
	}
	// GitHub does not retry; the maintainer redelivers by hand, with the same id.
	if _, err := w.h.Deliver(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("status %s after redelivery, want answered", c.Status)
	}
	if n := w.botComments("Clarification needed"); n != 1 {
		t.Errorf("round comment posted %d times", n)
	}
}

func TestALostDeliveryHealsOnTheNextEvent(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.Comment(repo, 42, "maria", "Per key.") // its delivery never arrives
	w.comment("coder-agent", "/clarify followup CLR-42-001 Which limit?")
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Round != 2 || c.Status != clarify.Pending || c.Thread[1].Text != "Per key." {
		t.Fatalf("the next event did not fold in the lost answer first: %+v", c)
	}
}
