package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// relationsConfig shows blocking clarifications as issue dependencies.
const relationsConfig = "relations: blocked-by\n"

// relationAsk is a blocking question with a topic and a fallback, so that it can also
// settle by timing out.
const relationAsk = "/clarify @maria Should the limit apply per API key or per client IP?\nTopic: rate-limit scope\nOptions:\na) per API key\nb) per client IP\nFallback: a"

// decisionIssue is #43, the first issue the app opens in the world of newHarness.
const decisionIssue = 43

// askWithRelations sets relations: blocked-by, asks the blocking question and checks that
// #42 is blocked by a decision issue the app opened for it, named for the question and
// linking back, recorded in the ledger.
func askWithRelations(t *testing.T) *driver {
	t.Helper()
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", relationsConfig)
	w.comment("coder-agent", relationAsk)
	checkBlockedByDecisionIssue(t, w)
	return w
}

func checkBlockedByDecisionIssue(t *testing.T, w *driver) {
	t.Helper()
	if got := w.h.Fake.BlockedBy(repo, 42); !slices.Equal(got, []int{decisionIssue}) {
		t.Fatalf("#42 is blocked by %v, want [%d], the decision issue", got, decisionIssue)
	}
	if got := w.h.Fake.Issues(repo); !slices.Equal(got, []int{42, decisionIssue}) {
		t.Errorf("issues %v, want #42 and one decision issue", got)
	}
	title, body := w.h.Fake.IssueTitle(repo, decisionIssue), w.h.Fake.IssueBody(repo, decisionIssue)
	if author := w.h.Fake.IssueAuthor(repo, decisionIssue); author != "clarify[bot]" {
		t.Errorf("the decision issue is by %q, want the app", author)
	}
	if title != "Decision needed: rate-limit scope (CLR-42-001)" {
		t.Errorf("decision issue title %q", title)
	}
	for _, want := range []string{"octo/widgets#42 waits on this decision: clarification CLR-42-001", "per API key or per client IP?", "`/respond CLR-42-001 <answer>`"} {
		if !strings.Contains(body, want) {
			t.Errorf("the decision issue's body lacks %q:\n%s", want, body)
		}
	}
	want := clarify.Relation{Clarification: "CLR-42-001", Kind: clarify.RelationBlockedBy, Issue: decisionIssue, ID: w.h.Fake.IssueID(repo, decisionIssue), Linked: true}
	if got := w.ledger().Relations; len(got) != 1 || got[0] != want {
		t.Errorf("the ledger records %+v, want [%+v]", got, want)
	}
}

// checkSettled checks that the edge is off, the decision issue closed with one comment of
// the app's saying what was decided, and the ledger holds no relation any more.
func checkSettled(t *testing.T, w *driver, says string) {
	t.Helper()
	if got := w.h.Fake.BlockedBy(repo, 42); len(got) != 0 {
		t.Errorf("#42 is still blocked by %v", got)
	}
	if st := w.h.Fake.IssueState(repo, decisionIssue); st != "closed" {
		t.Errorf("the decision issue is %s, want closed", st)
	}
	var said []string
	for _, c := range w.h.Fake.Comments(repo, decisionIssue) {
		if c.User == "clarify[bot]" {
			said = append(said, c.Body)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], says) {
		t.Errorf("the decision issue's comments by the app: %q, want one saying %q", said, says)
	}
	if got := w.ledger().Relations; len(got) != 0 {
		t.Errorf("the ledger still records %+v", got)
	}
}

func TestABlockingQuestionShowsAsAnIssueDependencyUntilItSettles(t *testing.T) {
	sweep := func(w *driver) {
		if _, err := w.h.Sweep(context.Background()); err != nil {
			w.t.Fatal(err)
		}
	}
	cases := map[string]struct {
		settle func(w *driver)
		says   string
		reason string
	}{
		"resolved": {func(w *driver) {
			w.comment("maria", "Per API key.")
			w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
		}, "**Decided** (CLR-42-001, in octo/widgets#42):\n\n> Per API key.", "completed"},
		"abandoned": {func(w *driver) { w.comment("coder-agent", "/clarify abandon CLR-42-001") },
			"Clarification CLR-42-001 was abandoned without a decision", "not_planned"},
		"issueClosed": {func(w *driver) { w.send(w.h.Fake.CloseIssue(repo, 42, "maria")) },
			"Clarification CLR-42-001 was abandoned without a decision", "not_planned"},
		"timedOutToItsFallback": {func(w *driver) {
			w.h.Fake.Advance(31 * time.Minute)
			sweep(w)
			w.h.Fake.Advance(31 * time.Minute)
			sweep(w)
		}, "**Decided** (CLR-42-001", "completed"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := askWithRelations(t)
			tc.settle(w)
			if c, _ := w.ledger().Find("CLR-42-001"); c.Status.Open() {
				t.Fatalf("CLR-42-001 is %s, want settled", c.Status)
			}
			checkSettled(t, w, tc.says)
			if got := w.h.Fake.IssueStateReason(repo, decisionIssue); got != tc.reason {
				t.Errorf("the decision issue closed as %q, want %q", got, tc.reason)
			}
			w.replayAll()
			w.noUnhandledRequests()
		})
	}
}

func TestALostDeliveryLeavesNoEdgeBehind(t *testing.T) {
	// The resolve's delivery fails; the next look at GitHub's delivery log asks for it
	// again, and the run it makes takes the edge off and closes the decision issue.
	w := askWithRelations(t)
	w.comment("maria", "Per API key.")
	d, _ := w.h.Fake.Comment(repo, 42, "coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	w.h.Drop(d)
	if got := w.h.Fake.BlockedBy(repo, 42); len(got) != 1 {
		t.Fatalf("blocked by %v before the redelivery", got)
	}
	w.h.Fake.Advance(2 * time.Minute)
	if _, err := w.h.Redeliver(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkSettled(t, w, "> Per API key.")
}

func TestARunThatFailsAfterOpeningTheDecisionIssueOpensNoSecond(t *testing.T) {
	// GitHub takes the edge but its answer is lost (502): the run fails before its save,
	// so the ledger does not know the decision issue. The next run finds it tied to #42;
	// when the edge itself failed, it finds the issue among the app's newest.
	for name, fail := range map[string]func(f *fakegithub.Server, route string){
		"edgeTakenAnswerLost": func(f *fakegithub.Server, route string) { f.FailNextAfterApply(route, http.StatusBadGateway, 1) },
		"edgeFailed":          func(f *fakegithub.Server, route string) { f.FailNext(route, http.StatusBadGateway, 1) },
	} {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", relationsConfig)
			fail(w.h.Fake, "POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by")
			d, _ := w.h.Fake.Comment(repo, 42, "coder-agent", relationAsk)
			w.send(d)
			if got := w.h.Fake.Issues(repo); !slices.Equal(got, []int{42, decisionIssue}) {
				t.Fatalf("issues %v after the failed run, want the decision issue it opened", got)
			}
			w.h.Fake.Advance(2 * time.Minute)
			if _, err := w.h.Sweep(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkBlockedByDecisionIssue(t, w)
		})
	}
}

func TestWithoutIssueDependenciesTheQuestionGoesOnAlone(t *testing.T) {
	// A GitHub Enterprise Server without issue dependencies answers 404: no decision issue
	// is opened, the warning says why, and later runs do not ask again.
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", relationsConfig)
	w.h.Fake.DisableRelations()
	w.comment("coder-agent", relationAsk)
	if got := w.h.Fake.Issues(repo); !slices.Equal(got, []int{42}) {
		t.Errorf("issues %v, want no decision issue", got)
	}
	want := clarify.Relation{Clarification: "CLR-42-001", Kind: clarify.RelationBlockedBy}
	if got := w.ledger().Relations; len(got) != 1 || got[0] != want {
		t.Errorf("the ledger records %+v, want [%+v]", got, want)
	}
	w.h.Fake.ResetRequests()
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	for _, r := range w.h.Fake.Requests() {
		if strings.Contains(r.Route, "dependencies") {
			t.Errorf("asked again: %s %s", r.Method, r.Path)
		}
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved {
		t.Errorf("CLR-42-001 is %s, want resolved", c.Status)
	}
}

func TestANonBlockingQuestionOpensNoDecisionIssue(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", relationsConfig)
	w.comment("coder-agent", "/clarify @maria --non-blocking Per key or per IP?")
	if got := w.h.Fake.Issues(repo); !slices.Equal(got, []int{42}) {
		t.Errorf("issues %v, want no decision issue for a non-blocking question", got)
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Blocking {
		t.Fatal("the question was taken as blocking")
	}
}

// requestsOfALifecycle counts the requests of an ask, an answer and a resolve.
func requestsOfALifecycle(t *testing.T, config string) (total int, byRoute map[string]int) {
	w := &driver{t: t, h: newHarness(t)}
	if config != "" {
		w.h.Fake.SetFile(repo, ".github/clarify.yml", config)
	}
	w.h.Fake.ResetRequests()
	w.comment("coder-agent", relationAsk)
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	byRoute = map[string]int{}
	for _, r := range w.h.Fake.Requests() {
		if !strings.Contains(r.Route, "access_tokens") {
			byRoute[r.Route]++
			total++
		}
	}
	return total, byRoute
}

func TestRelationsCostPerLifecycle(t *testing.T) {
	// Printed with -v, never asserted: the requests of one lifecycle with and without
	// relations: (the config's read is in both).
	off, offRoutes := requestsOfALifecycle(t, "sla: 30m\n")
	on, onRoutes := requestsOfALifecycle(t, relationsConfig)
	t.Logf("one lifecycle (ask, answer, resolve): %d requests with relations off, %d with relations: blocked-by", off, on)
	for route, n := range onRoutes {
		if d := n - offRoutes[route]; d != 0 {
			t.Logf("  %+d %s", d, route)
		}
	}
	if on <= off {
		t.Errorf("relations: blocked-by cost %d requests, off %d: the edge and the decision issue were not written", on, off)
	}
}

func TestASubIssueStandsForABlockingQuestionUntilItSettles(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.SetFile(repo, ".github/clarify.yml", "relations: sub-issue\n")
	w.comment("coder-agent", relationAsk)
	if got := w.h.Fake.SubIssues(repo, 42); !slices.Equal(got, []int{decisionIssue}) {
		t.Fatalf("#42's sub-issues %v, want [%d], the decision issue", got, decisionIssue)
	}
	if got := w.h.Fake.BlockedBy(repo, 42); len(got) != 0 {
		t.Errorf("#42 is blocked by %v: sub-issue adds no dependency", got)
	}
	if got := w.ledger().Relations; len(got) != 1 || got[0].Kind != clarify.RelationSubIssue || !got[0].Linked {
		t.Errorf("the ledger records %+v, want the linked sub-issue", got)
	}
	w.comment("maria", "Per API key.")
	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	if got := w.h.Fake.SubIssues(repo, 42); len(got) != 0 {
		t.Errorf("#42 still has sub-issues %v", got)
	}
	checkSettled(t, w, "> Per API key.")
	w.replayAll()
	w.noUnhandledRequests()
}

func TestAnEdgeTakenOffByHandStaysOff(t *testing.T) {
	// maria takes the edge off in the sidebar while the question is open: GitHub tells the
	// app, which records it off and neither puts it back nor takes it off again; the
	// decision issue still closes with the decision.
	cases := map[string]struct {
		config  string
		takeOff func(f *fakegithub.Server) fakegithub.Delivery
		edges   func(f *fakegithub.Server) []int
	}{
		"blockedBy": {relationsConfig,
			func(f *fakegithub.Server) fakegithub.Delivery {
				return f.TakeOffBlockedBy(repo, 42, decisionIssue, "maria")
			},
			func(f *fakegithub.Server) []int { return f.BlockedBy(repo, 42) }},
		"subIssue": {"relations: sub-issue\n",
			func(f *fakegithub.Server) fakegithub.Delivery {
				return f.TakeOffSubIssue(repo, 42, decisionIssue, "maria")
			},
			func(f *fakegithub.Server) []int { return f.SubIssues(repo, 42) }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			w.h.Fake.SetFile(repo, ".github/clarify.yml", tc.config)
			w.comment("coder-agent", relationAsk)
			if st := w.send(tc.takeOff(w.h.Fake)); st != http.StatusOK {
				t.Fatalf("the delivery of the edge taken off answered %d", st)
			}
			if got := w.ledger().Relations; len(got) != 1 || got[0].Linked || got[0].Issue != decisionIssue {
				t.Errorf("the ledger records %+v, want the decision issue with its edge off", got)
			}
			w.comment("maria", "Per API key.")
			w.h.Fake.ResetRequests()
			w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
			if got := tc.edges(w.h.Fake); len(got) != 0 {
				t.Errorf("the edge was put back: %v", got)
			}
			for _, r := range w.h.Fake.Requests() {
				if r.Method == http.MethodDelete && strings.Contains(r.Route, "sub_issue") || strings.Contains(r.Route, "blocked_by/{issue_id}") {
					t.Errorf("took off an edge already off: %s %s", r.Method, r.Path)
				}
			}
			checkSettled(t, w, "> Per API key.")
			w.replayAll()
		})
	}
}

// TestARelationPayloadWithIdsAloneIsAccepted: GitHub's schema of issue_dependencies and
// sub_issues makes the issues themselves optional beside their ids. Such a delivery is
// GitHub's: it is accepted (200, not 400) and costs no request, as the app cannot tell
// which issue it concerns.
func TestARelationPayloadWithIdsAloneIsAccepted(t *testing.T) {
	w := askWithRelations(t)
	d := w.h.Fake.TakeOffBlockedBy(repo, 42, decisionIssue, "maria")
	var payload map[string]any
	if err := json.Unmarshal(d.Body, &payload); err != nil {
		t.Fatal(err)
	}
	delete(payload, "blocked_issue")
	delete(payload, "blocking_issue")
	d.Body, _ = json.Marshal(payload)
	before := len(w.h.Fake.Requests())
	if st := w.send(d); st != http.StatusOK {
		t.Fatalf("a payload with the issues' ids alone answered %d, want 200", st)
	}
	if n := len(w.h.Fake.Requests()) - before; n != 0 {
		t.Errorf("it cost %d requests, want 0", n)
	}
}
