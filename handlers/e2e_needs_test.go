package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/wire"
)

// Questions that need several people (Needs:), through the webhook server: a role of three
// asked to agree, with a bot's and an outsider's reply among theirs.

// releaseRole sets up the release role of maria, ana, ben and the more members named (ana
// and ben with write access like maria), and wake-ups by dispatch.
func releaseRole(w *driver, more ...string) {
	for _, login := range []string{"ana", "ben"} {
		w.h.Fake.AddUser(login, "User")
		w.h.Fake.SetPermission(repo, login, "write")
	}
	w.h.Fake.AddUser("lint-bot", "Bot")
	w.h.Fake.SetPermission(repo, "lint-bot", "write")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "roles:\n  release: ["+strings.Join(append([]string{"maria", "ana", "ben"}, more...), ", ")+"]\nanswer_from: targets\nnotify:\n  dispatch: true\n")
}

// TestAQuestionThatNeedsTwoWaitsForTwoWhoAgree: one answer, a bot's, an outsider's and
// two that disagree leave it open and wake nobody; the status comment counts the answers
// and shows those that differ; a change of mind that agrees answers it, and the record
// lists each one's answer.
func TestAQuestionThatNeedsTwoWaitsForTwoWhoAgree(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	releaseRole(w, "lint-bot") // a bot in the role answers too, and never counts
	w.comment("coder-agent", "/clarify release Freeze the release for the migration?\nExpect: yes/no\nNeeds: 2")
	w.comment("maria", "Yes.")
	w.comment("lint-bot", "/respond CLR-42-001 yes")
	w.comment("drive-by", "yes!")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending || !strings.Contains(w.statusBody(), "1 of 2 answers: maria") {
		t.Fatalf("after maria's answer, a bot's and an outsider's: %s\n%s", c.Status, w.statusBody())
	}
	w.comment("ana", "No, not this week.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending || !strings.Contains(w.statusBody(), "2 answers differ, 2 must agree") {
		t.Fatalf("after answers that differ: %s\n%s", c.Status, w.statusBody())
	}
	if sent := w.h.Fake.Dispatches(repo); len(sent) != 0 {
		t.Fatalf("woken before two agreed: %+v", sent)
	}
	w.comment("ana", "/respond CLR-42-001 yes, freeze it")
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Answered {
		t.Fatalf("after ana's change of mind: %s\n%s", c.Status, w.statusBody())
	}
	w.wantAgreed(c)
	if n := w.botComments("a bot's does not count"); n != 1 {
		t.Errorf("%d replies saying a bot's answer does not count, want 1", n)
	}
	w.noUnhandledRequests()
	w.replayAll()
}

// wantAgreed asserts the record of c, answered by maria and ana alike, lists both answers,
// and that the asker was woken once, with the value they agreed on.
func (w *driver) wantAgreed(c clarify.Clarification) {
	w.t.Helper()
	rec := clarify.AskRecordOf(42, c)
	if rec.Needs != 2 || len(rec.Answers) != 2 || rec.Answers[0].Author != "maria" || rec.Answers[1].Author != "ana" ||
		string(rec.Answers[1].Value) != "true" || rec.Answers[1].Text != "yes, freeze it" || string(rec.Value) != "true" {
		w.t.Errorf("the asker's record: %+v", rec)
	}
	sent := w.h.Fake.Dispatches(repo)
	var p wire.WakePayload
	if len(sent) != 1 || sent[0].EventType != wire.WakeAnswered || json.Unmarshal(sent[0].ClientPayload, &p) != nil || string(p.Value) != "true" {
		w.t.Errorf("wake-ups %+v, want one clarify-answered once two agreed", sent)
	}
}

// TestANeedsAboveTheTargetsPeopleIsRefused: a role of three cannot give four answers, nor
// one person two; by comment and by dispatch, with a code, and nothing is asked.
func TestANeedsAboveTheTargetsPeopleIsRefused(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	releaseRole(w)
	w.comment("coder-agent", "/clarify release Freeze the release?\nNeeds: 4")
	w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "@maria", Question: "Freeze the release?", Needs: 2})
	if n := w.botComments("round 1/"); n != 0 {
		t.Fatalf("%d rounds asked, want none:\n%s", n, w.h.Fake.Transcript(repo, 42))
	}
	if n := w.botComments("needs-too-many"); n != 2 {
		t.Errorf("%d refusals with needs-too-many, want 2", n)
	}
}

// TestADispatchedAskNeeds: a dispatch's `needs` is the ask's Needs: line.
func TestADispatchedAskNeeds(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	releaseRole(w)
	w.dispatch("coder-agent", wire.DispatchPayload{Issue: 42, Action: "ask", Target: "release", Question: "Freeze the release?", Needs: 2})
	if c, _ := w.ledger().Find("CLR-42-001"); c.Needs != 2 || !strings.Contains(w.mirrors()[0].Body, "Needs: 2") {
		t.Fatalf("the dispatched ask: %+v", c)
	}
	w.comment("ben", "Freeze it.")
	w.comment("ana", "Agreed, freeze.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Answered || len(clarify.RoundAnswers(c)) != 2 {
		t.Fatalf("two text answers: %+v", c)
	}
}

// writeRoutes are the routes of the app's writes so far (a token's aside), by route: comment
// ids differ between two lifecycles compared.
func (w *driver) writeRoutes() []string {
	var wrote []string
	for _, r := range w.h.Fake.Requests() {
		if r.Method != http.MethodGet && !strings.Contains(r.Route, "access_tokens") {
			wrote = append(wrote, r.Route)
		}
	}
	return wrote
}

// writesBeyond is more without one of each route in base: what a lifecycle wrote beyond
// another's.
func writesBeyond(more, base []string) []string {
	extra := slices.Clone(more)
	for _, w := range base {
		if i := slices.Index(extra, w); i >= 0 {
			extra = slices.Delete(extra, i, i+1)
		}
	}
	return extra
}

// statusBody is the body of the app's status comment.
func (w *driver) statusBody() string {
	w.t.Helper()
	_, body := w.statusComment()
	return body
}

// TestTheCostOfAQuestionThatNeedsTwo counts a one-round lifecycle (ask, answers, resolve)
// of a question that needs two people beside one that needs one: the second person's
// answer costs its run's reads and two writes, its 👍 and the status edit. `go test
// ./handlers -run TestTheCostOfAQuestionThatNeedsTwo -v` prints the figures.
func TestTheCostOfAQuestionThatNeedsTwo(t *testing.T) {
	lifecycle := func(needs string, answerers ...string) (requests int, wrote []string) {
		w := &driver{t: t, h: newHarness(t)}
		releaseRole(w)
		w.h.Fake.ResetRequests()
		w.comment("coder-agent", "/clarify release Freeze the release?\nExpect: yes/no"+needs)
		for _, who := range answerers {
			w.comment(who, "Yes, freeze it.")
		}
		w.comment("coder-agent", "/clarify resolve CLR-42-001")
		if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved {
			t.Fatalf("after the lifecycle: %+v", c)
		}
		return len(w.h.Fake.Requests()), w.writeRoutes()
	}
	one, oneWrites := lifecycle("", "maria")
	two, twoWrites := lifecycle("\nNeeds: 2", "maria", "ana")
	t.Logf("one-round lifecycle: %d requests (%d writes) needing one answer; %d (%d writes) needing two",
		one, len(oneWrites), two, len(twoWrites))
	extra := writesBeyond(twoWrites, oneWrites)
	slices.Sort(extra)
	want := []string{"PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"}
	if !slices.Equal(extra, want) {
		t.Errorf("the second answer wrote %q more, want its 👍 and the status edit", extra)
	}
}
