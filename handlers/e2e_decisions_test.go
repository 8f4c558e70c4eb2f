package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// botText is every comment the app wrote in issue n, joined.
func (w *driver) botText(n int) string {
	var b strings.Builder
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User == "clarify[bot]" {
			b.WriteString(c.Body + "\n")
		}
	}
	return b.String()
}

// memory reads the repository's decisions as a reader with the key would: the label's
// issue, its app comments, each part verified.
func (w *driver) memory() (int, clarify.Memory) {
	w.t.Helper()
	_, desc, ok := w.h.Fake.RepoLabel(repo, ledger.DecisionsLabel)
	if !ok {
		return 0, clarify.Memory{}
	}
	var n int
	if _, err := fmt.Sscanf(desc[strings.LastIndex(desc, "#"):], "#%d", &n); err != nil {
		w.t.Fatalf("label description %q names no issue", desc)
	}
	key := keyOf(w, n)
	var m clarify.Memory
	for _, c := range w.h.Fake.Comments(repo, n) {
		if c.User != "clarify[bot]" {
			continue
		}
		_, ds, err := render.DecodeDecisions(c.Body, key)
		if err != nil {
			w.t.Fatalf("part %d of the memory: %v", c.ID, err)
		}
		m.Decisions = append(m.Decisions, ds...)
	}
	return n, m
}

// settleCacheScope asks, answers and resolves a question on the topic "Cache scope" in #42;
// it returns maria's answer, where the decision was made (the agent resolves in words of
// its own, which are never put in her mouth).
func settleCacheScope(w *driver) int64 {
	w.comment("coder-agent", "/clarify @maria Should the cache be per user or global?\nTopic: Cache scope")
	answer := w.comment("maria", "Per-user cache, keyed by tenant.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per user, as maria says: tenants must never see each other's data.")
	return answer
}

func TestASettledDecisionIsOfferedToAMatchingQuestionOnly(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	decidedIn := settleCacheScope(w)

	n, m := w.memory()
	if len(m.Decisions) != 1 {
		t.Fatalf("the memory holds %d decisions, want the one maria's answer settled: %+v", len(m.Decisions), m)
	}
	d := m.Decisions[0]
	if d.ID != "CLR-42-001" || d.Issue != 42 || d.Decision != "Per-user cache, keyed by tenant." || d.By != "maria" || d.CommentID != decidedIn || !d.InForce() {
		t.Errorf("decision recorded as %+v", d)
	}
	if st := w.h.Fake.IssueState(repo, n); st != "closed" {
		t.Errorf("the decisions issue #%d is %s, want closed: it is the app's memory, not work", n, st)
	}

	// A new issue, a question on the same topic written differently: offered, still open.
	w.h.Fake.OpenIssue(repo, 60, "Cache the search results", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: cache-scope!")
	got := w.botText(60)
	for _, want := range []string{"**Decided before** in CLR-42-001", "> Per-user cache, keyed by tenant.",
		fmt.Sprintf("(../issues/42#issuecomment-%d)", decidedIn), "by `maria`", `"offered":"CLR-42-001"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the round in #60 lacks %q:\n%s", want, got)
		}
	}
	if l, err := w.h.Ledger(repo, 60); err != nil || l.Clarifications[0].Status != clarify.Pending {
		t.Errorf("the offered question is %v (%v), want it still pending: an offer is advice", l.Clarifications, err)
	}

	// A different topic and question: nothing offered.
	w.h.Fake.OpenIssue(repo, 61, "Retries", "maria")
	w.commentOn(61, "coder-agent", "/clarify @maria How many times should a failed upload be retried?\nTopic: Upload retries")
	if got := w.botText(61); strings.Contains(got, "Decided before") {
		t.Errorf("a question on another topic was offered a decision:\n%s", got)
	}
	w.replayAll()
}

func TestANearIdenticalQuestionIsOfferedTheDecision(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Should the rate limit apply per API key or per client IP?")
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001")

	w.h.Fake.OpenIssue(repo, 60, "Limits again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria should the rate-limit apply per API key, or per client IP")
	if got := w.botText(60); !strings.Contains(got, "> Per API key.") {
		t.Errorf("a near-identical question was not offered the decision its twin settled:\n%s", got)
	}
}

func TestOffersCanBeTurnedOff(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "decisions:\n  offer: false\n")
	w.h.Fake.Advance(time.Hour) // past the config cache
	w.h.Fake.OpenIssue(repo, 60, "Cache the search results", "maria")
	w.h.Fake.ResetRequests()
	w.commentOn(60, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: Cache scope")
	if got := w.botText(60); strings.Contains(got, "Decided before") {
		t.Errorf("decisions.offer: false, and the round offered one:\n%s", got)
	}
	if n := w.h.Fake.CountRequests("GET /repos/{owner}/{repo}/labels/{name}"); n != 0 {
		t.Errorf("with offers off, the ask read the memory's label %d times, want never", n)
	}
}

func TestSettlingTheSameTopicDifferentlySupersedesTheEarlierDecision(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Cache again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Per user or global, now that tenants share data?\nTopic: Cache scope")
	w.commentOn(60, "maria", "One global cache.")
	w.h.Fake.Advance(time.Minute) // the memory is written at most once a minute
	w.commentOn(60, "coder-agent", "/clarify resolve CLR-60-001 Global now.")

	_, m := w.memory()
	if len(m.Decisions) != 2 || m.Decisions[0].SupersededBy != "CLR-60-001" || !m.Decisions[1].InForce() {
		t.Fatalf("memory after a different decision on the same topic: %+v", m.Decisions)
	}
	offersInForceOnly(w, "> One global cache.")
}

// offersInForceOnly asks about the cache scope in a new issue, #61, and insists that the
// decision in force is offered (want) and the superseded per-user one never.
func offersInForceOnly(w *driver, want string) {
	w.t.Helper()
	w.h.Fake.OpenIssue(repo, 61, "Cache again", "maria")
	w.commentOn(61, "coder-agent", "/clarify @maria Which cache scope for the new service?\nTopic: cache scope")
	if got := w.botText(61); strings.Contains(got, "Per-user cache") || !strings.Contains(got, want) {
		w.t.Errorf("want the decision in force offered and the superseded one never:\n%s", got)
	}
}

func TestAFallbackTakenOnTimeoutIsNoDecision(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Which cache scope?\nTopic: Cache scope\nOptions:\na) per user\nb) global\nFallback: a")
	for i := 0; i < 2; i++ {
		w.h.Fake.Advance(31 * time.Minute)
		if _, err := w.h.Sweep(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if c := w.ledger().Clarifications[0]; c.Status != clarify.Resolved {
		t.Fatalf("the clarification is %s after two SLAs, want resolved with its fallback", c.Status)
	}
	if _, m := w.memory(); len(m.Decisions) != 0 {
		t.Errorf("a fallback taken on timeout was remembered as a decision: %+v", m.Decisions)
	}
}

// TestADecisionLookupCostsTheSameWhateverTheHistory seeds the memory with 10 and with
// 1,000 decisions and counts what the lookup of one new question costs. `go test
// ./handlers -run TestADecisionLookupCosts -v` prints the figures.
func TestADecisionLookupCostsTheSameWhateverTheHistory(t *testing.T) {
	for _, size := range []int{10, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			seedMemory(t, w, 500, size, false)
			w.h.Fake.ResetRequests()
			w.comment("coder-agent", fmt.Sprintf("/clarify @maria What about topic %d?\nTopic: Topic %d", size-1, size-1))
			lookup, search := 0, 0
			for _, r := range w.h.Fake.Requests() {
				switch {
				case strings.HasPrefix(r.Route, "GET /search"):
					search++
				case r.Route == "GET /repos/{owner}/{repo}/labels/{name}" && strings.HasSuffix(r.Path, "/"+ledger.DecisionsLabel),
					r.Route == "GET /repos/{owner}/{repo}/issues/{issue_number}/comments" && strings.Contains(r.Path, "/issues/500/"):
					lookup++
				}
			}
			t.Logf("%d decisions: the lookup cost %d requests, %d of them search; the whole ask %d", size, lookup, search, len(w.h.Fake.Requests()))
			if !strings.Contains(w.botText(42), fmt.Sprintf("> Decision %d", size-1)) {
				t.Errorf("the newest decision of %d was not offered", size)
			}
			if lookup > 2 || search != 0 {
				t.Errorf("lookup cost %d requests and %d searches, want at most 2 and none", lookup, search)
			}
		})
	}
}

// seedMemory writes n decisions into a decisions issue numbered at, as the app would.
// decisionText is decision i's text: short and alike, or (noisy) 1,200 random letters,
// which compress poorly and so take the most room.
func decisionText(i int, noisy bool) string {
	text := fmt.Sprintf("Decision %d: do it the way the team agreed in the design review.", i)
	if noisy {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		b := make([]byte, 1200)
		for j := range b {
			b[j] = byte('a' + rng.IntN(26))
		}
		text += " " + string(b)
	}
	return text
}

func seedMemory(t *testing.T, w *driver, at, n int, noisy bool) {
	t.Helper()
	var m clarify.Memory
	base := w.h.Fake.Now().Add(-time.Duration(n) * time.Hour)
	for i := 0; i < n; i++ {
		m.Record(clarify.Decision{ID: fmt.Sprintf("CLR-%d-001", 1000+i), Issue: 1000 + i, Topic: fmt.Sprintf("Topic %d", i),
			Question: fmt.Sprintf("What about topic %d, and how should it work in the long run?", i),
			Decision: decisionText(i, noisy), By: "maria", At: base.Add(time.Duration(i) * time.Hour)})
	}
	bodies, err := render.EncodeDecisions(m, keyOf(w, at))
	if err != nil {
		t.Fatal(err)
	}
	w.h.Fake.OpenIssue(repo, at, "Clarify: decisions of this repository", "clarify[bot]")
	for _, b := range bodies {
		w.h.Fake.Comment(repo, at, "clarify[bot]", b)
	}
	w.h.Fake.SetLabel(repo, ledger.DecisionsLabel, "ededed", fmt.Sprintf("Clarify's decision memory: issue #%d", at))
	t.Logf("%d decisions take %d comments", n, len(bodies))
}

func TestASupersededDecisionIsNeverOffered(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Tenants share data now", "maria")
	cmd := w.commentOn(60, "maria", "/clarify supersede CLR-42-001 One global cache: tenants share data now.")
	if c, _ := w.h.Fake.CommentByID(cmd); len(c.Reactions["+1"]) != 1 {
		t.Errorf("the supersede command got reactions %v, want the app's 👍", c.Reactions)
	}
	_, m := w.memory()
	if len(m.Decisions) != 2 || m.Decisions[0].InForce() || !m.Decisions[1].InForce() || m.Decisions[1].By != "maria" || m.Decisions[1].Topic != "Cache scope" {
		t.Fatalf("memory after the supersede: %+v", m.Decisions)
	}

	offersInForceOnly(w, "> One global cache: tenants share data now.")

	// Superseding it again through the old decision's words fails: only one is in force.
	w.commentOn(60, "maria", "/clarify supersede CLR-99-001 Something else.")
	if got := w.botText(60); !strings.Contains(got, "there is no decision CLR-99-001 in this repository's memory") {
		t.Errorf("a supersede of an unknown decision was not refused:\n%s", got)
	}
	w.replayAll()
}

func TestOnlyAMaintainerSupersedes(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.AddUser("reader", "User")
	w.h.Fake.SetPermission(repo, "reader", "read")
	w.h.Fake.OpenIssue(repo, 60, "Opinions", "reader")
	w.commentOn(60, "coder-agent", "/clarify @maria Per user still?\nTopic: Something else")
	w.commentOn(60, "reader", "/clarify @maria Is this right?")
	w.commentOn(60, "reader", "/clarify supersede CLR-42-001 Global.")
	_, m := w.memory()
	if !m.Decisions[0].InForce() || len(m.Decisions) != 1 {
		t.Errorf("a reader who asks nothing here superseded a decision: %+v", m.Decisions)
	}
}

// precedentWorld settles "Cache scope" in #42 with settle_after 2h (and a day's SLA, so
// that nothing else happens meanwhile), then asks the same topic in #60; it returns the
// id of the comment that offers the decision.
func precedentWorld(t *testing.T) (*driver, int64) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "sla: 24h\ndecisions:\n  settle_after: 2h\n")
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Cache the search results", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: Cache scope")
	for _, c := range w.h.Fake.Comments(repo, 60) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, "Decided before") {
			return w, c.ID
		}
	}
	t.Fatal("no offer in #60")
	return nil, 0
}

func (w *driver) statusOf(n int, id string) clarify.Clarification {
	w.t.Helper()
	l, err := w.h.Ledger(repo, n)
	if err != nil {
		w.t.Fatal(err)
	}
	c, ok := l.Find(id)
	if !ok {
		w.t.Fatalf("no %s in #%d", id, n)
	}
	return c
}

// pastTheWindow lets the 2h window for objection of #60's offer pass, sweeping an hour in
// (CLR-60-001 must still be pending) and past it, and returns CLR-60-001 as then.
func (w *driver) pastTheWindow() clarify.Clarification {
	w.t.Helper()
	w.h.Fake.Advance(time.Hour)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Pending {
		w.t.Fatalf("CLR-60-001 is %s an hour in, want still pending: the window is 2h", c.Status)
	}
	w.h.Fake.Advance(61 * time.Minute)
	w.sweep()
	return w.statusOf(60, "CLR-60-001")
}

func TestAnUnopposedOfferResolvesFromPrecedentAfterTheWindow(t *testing.T) {
	w, _ := precedentWorld(t)
	c := w.pastTheWindow()
	if c.Status != clarify.Resolved || c.Resolution != "Per-user cache, keyed by tenant." || c.Precedent == nil || c.Precedent.From != "CLR-42-001" {
		t.Fatalf("after the window CLR-60-001 is %s with %q (precedent %+v), want resolved from CLR-42-001", c.Status, c.Resolution, c.Precedent)
	}
	got := w.botText(60)
	for _, want := range []string{"Resolved from precedent · CLR-60-001", "`/clarify undo CLR-60-001`", `"kind":"precedent"`, `"decision":"Per-user cache, keyed by tenant."`} {
		if !strings.Contains(got, want) {
			t.Errorf("#60 lacks %q:\n%s", want, got)
		}
	}
	if _, m := w.memory(); len(m.Decisions) != 1 {
		t.Errorf("a resolution from precedent was remembered as a decision of its own: %+v", m.Decisions)
	}
	w.replayAll()
}

func TestAThumbsDownOnTheOfferCancelsTheSettlement(t *testing.T) {
	w, offer := precedentWorld(t)
	w.h.Fake.React(repo, offer, "maria", "-1") // no webhook: the app must look
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Pending || !c.Precedent.Objected {
		t.Errorf("after maria's 👎 CLR-60-001 is %s (precedent %+v), want pending and the objection recorded", c.Status, c.Precedent)
	}
}

func TestAPersonsCommentCancelsTheSettlement(t *testing.T) {
	w, _ := precedentWorld(t)
	w.h.Fake.Advance(time.Minute)
	w.commentOn(60, "maria", "Hold on, search results are not tenant data.")
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status == clarify.Resolved {
		t.Errorf("CLR-60-001 resolved from precedent though maria commented in the window")
	}
}

func TestAResolutionFromPrecedentIsUndone(t *testing.T) {
	w, _ := precedentWorld(t)
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	undo := w.commentOn(60, "coder-agent", "/clarify undo CLR-60-001")
	c := w.statusOf(60, "CLR-60-001")
	if c.Status != clarify.Pending || c.Resolution != "" || !c.Precedent.Undone {
		t.Fatalf("after the undo CLR-60-001 is %s with %q, want pending again", c.Status, c.Resolution)
	}
	if cm, _ := w.h.Fake.CommentByID(undo); len(cm.Reactions["+1"]) != 1 {
		t.Errorf("the undo got reactions %v, want a 👍", cm.Reactions)
	}
	w.h.Fake.Advance(3 * time.Hour)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status == clarify.Resolved {
		t.Error("an undone precedent settled the clarification again")
	}
	w.commentOn(60, "coder-agent", "/clarify stats")
	got := w.botText(60)
	for _, want := range []string{"- earlier decisions: 1 offered, 0 accepted, 1 resolved from precedent, 0 objected to, 1 undone",
		`"precedents":{"offered":1,"accepted":0,"from_precedent":1,"objected":0,"undone":1}`} {
		if !strings.Contains(got, want) {
			t.Errorf("/clarify stats lacks %q:\n%s", want, got)
		}
	}
}

func TestOnlyAnExactTopicSettlesFromPrecedent(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "sla: 24h\ndecisions:\n  settle_after: 2h\n")
	w.comment("coder-agent", "/clarify @maria Should the rate limit apply per API key or per client IP?")
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001")
	w.h.Fake.OpenIssue(repo, 60, "Limits again", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Should the rate limit apply per API key or per client address?\nTopic: Limits v2")
	w.h.Fake.Advance(3 * time.Hour)
	w.sweep()
	if c := w.statusOf(60, "CLR-60-001"); c.Status == clarify.Resolved {
		t.Error("a near-identical question on another topic was resolved from precedent: only an exact topic may be")
	}
}

func TestAQuestionIsNotHeldUpWhenTheDecisionsCannotBeRead(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Cache again", "maria")
	// A fresh process, which must find the memory through its label, and cannot.
	w.h.Stop()
	if _, err := w.h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.h.Fake.FailNext("GET /repos/{owner}/{repo}/labels/{name}", http.StatusBadGateway, 10)
	w.commentOn(60, "coder-agent", "/clarify @maria Which cache scope?\nTopic: Cache scope")
	got := w.botText(60)
	if !strings.Contains(got, "Clarification needed · CLR-60-001") || strings.Contains(got, "Decided before") {
		t.Errorf("with the memory unreadable, want the question asked without an offer:\n%s", got)
	}
}

func TestTheAskingAgentLearnsOfAResolutionFromPrecedentLikeAnyOther(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "sla: 24h\nnotify:\n  dispatch: true\ndecisions:\n  settle_after: 2h\n")
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Cache the search results", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: Cache scope")
	w.h.Fake.Advance(2*time.Hour + time.Minute)
	w.sweep()
	var found bool
	for _, d := range w.h.Fake.Dispatches(repo) {
		var p wire.WakePayload
		if d.EventType == wire.WakeResolved && json.Unmarshal(d.ClientPayload, &p) == nil && p.ID == "CLR-60-001" {
			found = p.Decision == "Per-user cache, keyed by tenant."
		}
	}
	if !found {
		t.Errorf("no clarify-resolved wake-up with the decision for CLR-60-001: %+v", w.h.Fake.Dispatches(repo))
	}
}

func TestAFullMemorySpillsAcrossCommentsAndKeepsTheNewest(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	seedMemory(t, w, 500, clarify.MaxRemembered-1, true)
	settleCacheScope(w)
	_, m := w.memory()
	if len(m.Decisions) != clarify.MaxRemembered || m.Decisions[0].ID != "CLR-1000-001" || m.Decisions[len(m.Decisions)-1].ID != "CLR-42-001" {
		t.Fatalf("memory after one more decision: %d decisions, from %s to %s", len(m.Decisions), m.Decisions[0].ID, m.Decisions[len(m.Decisions)-1].ID)
	}
	w.h.Fake.OpenIssue(repo, 60, "One more", "maria")
	w.commentOn(60, "coder-agent", "/clarify @maria Retries?\nTopic: Upload retries")
	w.commentOn(60, "maria", "Three.")
	w.h.Fake.Advance(time.Minute) // the memory is written at most once a minute
	w.commentOn(60, "coder-agent", "/clarify resolve CLR-60-001")
	_, m = w.memory()
	parts := 0
	for _, c := range w.h.Fake.Comments(repo, 500) {
		if c.User == "clarify[bot]" {
			parts++
			if len(c.Body) > 60_000 {
				t.Errorf("part %d is %d bytes", c.ID, len(c.Body))
			}
		}
	}
	t.Logf("%d decisions of incompressible text in %d comments", len(m.Decisions), parts)
	if len(m.Decisions) != clarify.MaxRemembered || m.Decisions[0].ID != "CLR-1001-001" || m.Decisions[len(m.Decisions)-1].ID != "CLR-60-001" {
		t.Errorf("past the cap: %d decisions, from %s to %s; want the oldest dropped and the newest kept", len(m.Decisions), m.Decisions[0].ID, m.Decisions[len(m.Decisions)-1].ID)
	}
	if parts >= 100 {
		t.Errorf("%d comments: a lookup would need more than one page", parts)
	}
}

// TestASupersedeOutlivesTheProcessThatWroteIt: the decision that replaced another keeps
// its id, and a fresh read of the memory keeps both, so a new process offers the new one.
func TestASupersedeOutlivesTheProcessThatWroteIt(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	settleCacheScope(w)
	w.h.Fake.OpenIssue(repo, 60, "Tenants share data now", "maria")
	w.commentOn(60, "maria", "/clarify supersede CLR-42-001 One global cache: tenants share data now.")
	w.h.Stop()
	if _, err := w.h.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	offersInForceOnly(w, "> One global cache: tenants share data now.")
	w.replayAll()
}
