package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/testenv"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// orgRepo is the organisation's .github repository, whose decisions octo/widgets inherits.
const orgRepo = "octo/.github"

// inheritConfig is octo/widgets' config in these tests: a day's SLA (so that nothing else
// happens meanwhile), settling from precedent after 2h, and the organisation's decisions.
const inheritConfig = "sla: 24h\ndecisions:\n  settle_after: 2h\n  inherit: true\n"

// inheritWorld is newHarness with octo/.github in the same installation, where lead has
// write access and reader only read, and octo/widgets inheriting its decisions (config).
func inheritWorld(t *testing.T, config string) *driver {
	w := &driver{t: t, h: newHarness(t)}
	inheritRepos(w, config)
	return w
}

func inheritRepos(w *driver, config string) {
	w.h.Fake.AddInstallation(1, "octo", orgRepo)
	w.h.Fake.AddUser("lead", "User")
	w.h.Fake.SetPermission(orgRepo, "lead", "write")
	w.h.Fake.AddUser("reader", "User")
	w.h.Fake.SetPermission(orgRepo, "reader", "read")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", config)
}

// commentIn comments on issue n of repository full, through the webhook.
func (w *driver) commentIn(full string, n int, author, body string) int64 {
	w.t.Helper()
	d, id := w.h.Fake.Comment(full, n, author, body)
	if st := w.send(d); st != http.StatusOK {
		w.t.Fatalf("delivery of %s's comment on %s#%d answered %d, want 200", author, full, n, st)
	}
	return id
}

// decideInOrg settles "Cache scope" in octo/.github#4: the agent asks lead, lead answers
// "One global cache.", the agent resolves. It returns lead's answer, where it was decided.
func decideInOrg(w *driver) int64 {
	w.h.Fake.OpenIssue(orgRepo, 4, "Caching across our services", "lead")
	w.commentIn(orgRepo, 4, "coder-agent", "/clarify @lead Should our services cache per user or globally?\nTopic: Cache scope")
	answer := w.commentIn(orgRepo, 4, "lead", "One global cache.")
	w.commentIn(orgRepo, 4, "coder-agent", "/clarify resolve CLR-4-001")
	return answer
}

// memoryOf reads repository full's decisions as a reader with the key would.
func (w *driver) memoryOf(full string) clarify.Memory {
	w.t.Helper()
	_, desc, ok := w.h.Fake.RepoLabel(full, ledger.DecisionsLabel)
	if !ok {
		return clarify.Memory{}
	}
	var n int
	if _, err := fmt.Sscanf(desc[strings.LastIndex(desc, "#"):], "#%d", &n); err != nil {
		w.t.Fatalf("label description %q names no issue", desc)
	}
	owner, name, _ := clarify.ParseRepo(full)
	key := ledger.IssueLedgerKey(w.h.Config.LedgerKeyBytes(), owner, name, n)
	var m clarify.Memory
	for _, c := range w.h.Fake.Comments(full, n) {
		if c.User != "clarify[bot]" {
			continue
		}
		_, ds, err := render.DecodeDecisions(c.Body, key)
		if err != nil {
			w.t.Fatalf("part %d of the memory of %s: %v", c.ID, full, err)
		}
		m.Decisions = append(m.Decisions, ds...)
	}
	return m
}

// askCacheScopeIn asks about the cache scope in a new issue n of octo/widgets.
func askCacheScopeIn(w *driver, n int) {
	w.h.Fake.OpenIssue(repo, n, "Cache the search results", "maria")
	w.commentOn(n, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: Cache scope")
}

func TestAnInheritedDecisionIsOfferedAndSettlesAfterTheSameWindow(t *testing.T) {
	w := inheritWorld(t, inheritConfig)
	decidedIn := decideInOrg(w)
	if m := w.memoryOf(orgRepo); len(m.Decisions) != 1 || m.Decisions[0].By != "lead" {
		t.Fatalf("octo/.github remembers %+v, want lead's decision", m.Decisions)
	}
	askCacheScopeIn(w, 60)
	got := w.botText(60)
	for _, want := range []string{"**Decided before** in CLR-4-001",
		fmt.Sprintf("([issue 4 of octo/.github](../../../octo/.github/issues/4#issuecomment-%d))", decidedIn),
		"> One global cache.", `"offered":"CLR-4-001"`, `"offered_from":"octo/.github"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the round in #60 lacks %q:\n%s", want, got)
		}
	}
	c := w.pastTheWindow() // the same 2h, inherited or not
	if c.Status != clarify.Resolved || c.Resolution != "One global cache." || c.Precedent == nil || c.Precedent.From != "CLR-4-001" || c.Precedent.Repo != orgRepo {
		t.Fatalf("after the window CLR-60-001 is %s with %q (precedent %+v), want resolved from CLR-4-001 of octo/.github", c.Status, c.Resolution, c.Precedent)
	}
	if got := w.botText(60); !strings.Contains(got, "takes the decision of CLR-4-001 in octo/.github:") {
		t.Errorf("the settlement does not say where the decision was made:\n%s", got)
	}
	if m := w.memoryOf(repo); len(m.Decisions) != 0 {
		t.Errorf("a settlement from an inherited decision was remembered in octo/widgets: %+v", m.Decisions)
	}
	w.replayAll()
}

func TestAnObjectionHoldsAnInheritedDecision(t *testing.T) {
	for name, object := range map[string]func(w *driver, offer int64){
		"aThumbsDownOnTheOffer": func(w *driver, offer int64) { w.h.Fake.React(repo, offer, "drive-by", "-1") },
		"aPersonsComment":       func(w *driver, _ int64) { w.commentOn(60, "drive-by", "Hold on: search results are per tenant here.") },
	} {
		t.Run(name, func(t *testing.T) {
			w := inheritWorld(t, inheritConfig)
			decideInOrg(w)
			askCacheScopeIn(w, 60)
			var offer int64
			for _, c := range w.h.Fake.Comments(repo, 60) {
				if c.User == "clarify[bot]" && strings.Contains(c.Body, "Decided before") {
					offer = c.ID
				}
			}
			if offer == 0 {
				t.Fatalf("no offer in #60:\n%s", w.botText(60))
			}
			w.h.Fake.Advance(time.Minute)
			object(w, offer)
			w.h.Fake.Advance(2*time.Hour + time.Minute)
			w.sweep()
			if c := w.statusOf(60, "CLR-60-001"); c.Status != clarify.Pending || c.Precedent == nil || !c.Precedent.Objected {
				t.Errorf("after the objection CLR-60-001 is %s (precedent %+v), want pending and the objection recorded", c.Status, c.Precedent)
			}
		})
	}
}

func TestTheRepositorysOwnDecisionOverridesTheInheritedOne(t *testing.T) {
	w := inheritWorld(t, inheritConfig)
	decideInOrg(w)
	askCacheScopeIn(w, 59)
	if got := w.botText(59); !strings.Contains(got, "> One global cache.") {
		t.Fatalf("before octo/widgets decides, want the organisation's decision offered:\n%s", got)
	}
	settleCacheScope(w) // octo/widgets decides per user in #42
	askCacheScopeIn(w, 70)
	got := w.botText(70)
	if !strings.Contains(got, "**Decided before** in CLR-42-001 ([issue 42](../issues/42") || !strings.Contains(got, "> Per-user cache, keyed by tenant.") ||
		strings.Contains(got, "One global cache") {
		t.Errorf("want octo/widgets' own decision offered, not the organisation's:\n%s", got)
	}
}

func TestOnlyTheDecidingRepositoryChangesAnInheritedDecision(t *testing.T) {
	w := inheritWorld(t, inheritConfig)
	decideInOrg(w)

	// A reader of octo/.github may not replace its decision.
	w.h.Fake.OpenIssue(orgRepo, 7, "Caching again", "reader")
	w.commentIn(orgRepo, 7, "reader", "/clarify supersede CLR-4-001 Per user.")
	if m := w.memoryOf(orgRepo); len(m.Decisions) != 1 || !m.Decisions[0].InForce() {
		t.Fatalf("a reader of octo/.github superseded its decision: %+v", m.Decisions)
	}

	// Someone with write access in octo/widgets only may not either, and is told where to.
	w.h.Fake.OpenIssue(repo, 61, "Caching here", "maria")
	cmd := w.commentOn(61, "maria", "/clarify supersede CLR-4-001 Per user, here.")
	got := w.botText(61)
	if !strings.Contains(got, "CLR-4-001 was decided in octo/.github, whose decisions this repository inherits: only someone with write access there replaces it, with `/clarify supersede CLR-4-001 …` in one of its issues.") {
		t.Errorf("the supersede from octo/widgets was not refused with where to go:\n%s", got)
	}
	if c, _ := w.h.Fake.CommentByID(cmd); len(c.Reactions["+1"]) != 0 {
		t.Errorf("the refused supersede got a 👍: %v", c.Reactions)
	}
	if m := w.memoryOf(orgRepo); len(m.Decisions) != 1 || !m.Decisions[0].InForce() {
		t.Fatalf("a supersede from octo/widgets changed octo/.github's decision: %+v", m.Decisions)
	}
	if m := w.memoryOf(repo); len(m.Decisions) != 0 {
		t.Fatalf("a refused supersede left a decision in octo/widgets: %+v", m.Decisions)
	}

	// lead's supersede in octo/.github works, and octo/widgets is offered the new decision.
	lead := w.commentIn(orgRepo, 7, "lead", "/clarify supersede CLR-4-001 Per user: tenants must never share a cache.")
	if c, _ := w.h.Fake.CommentByID(lead); len(c.Reactions["+1"]) != 1 {
		t.Errorf("lead's supersede got reactions %v, want the app's 👍", c.Reactions)
	}
	if m := w.memoryOf(orgRepo); len(m.Decisions) != 2 || m.Decisions[0].InForce() || !m.Decisions[1].InForce() {
		t.Fatalf("octo/.github after lead's supersede: %+v", m.Decisions)
	}
	askCacheScopeIn(w, 62)
	if got := w.botText(62); !strings.Contains(got, "> Per user: tenants must never share a cache.") || strings.Contains(got, "One global cache") {
		t.Errorf("want the decision lead put in force offered, and the replaced one never:\n%s", got)
	}
	w.replayAll()
}

func TestAnUnreadableInheritedRepositoryDoesNotHoldUpTheQuestion(t *testing.T) {
	var logs testenv.Buffer
	w := &driver{t: t, h: newHarnessLogging(t, &logs, nil)}
	inheritRepos(w, inheritConfig)
	decideInOrg(w)
	settleCacheScope(w) // so that octo/widgets' own memory is found first, by its label
	w.h.Fake.OpenIssue(repo, 60, "Retries", "maria")
	// A fresh process, which must find both memories through their labels: octo/widgets'
	// is read, octo/.github's fails.
	w.h.Stop()
	if _, err := w.h.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	w.h.Fake.PassNext("GET /repos/{owner}/{repo}/labels/{name}", 1)
	w.h.Fake.FailNext("GET /repos/{owner}/{repo}/labels/{name}", http.StatusBadGateway, 10)
	w.commentOn(60, "coder-agent", "/clarify @maria How many times should an upload be retried?\nTopic: Upload retries")
	got := w.botText(60)
	if !strings.Contains(got, "Clarification needed · CLR-60-001") || strings.Contains(got, "Decided before") {
		t.Errorf("with the inherited memory unreadable, want the question asked without an offer:\n%s", got)
	}
	if !strings.Contains(logs.String(), "Inherited decisions not read") || !strings.Contains(logs.String(), orgRepo) {
		t.Errorf("the log does not say the inherited decisions of octo/.github went unread:\n%s", logs.String())
	}
}
