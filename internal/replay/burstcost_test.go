package replay_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// burstIssues is how many issues a planning agent asks in at once in the burst-cost test.
const burstIssues = 30

// burstCost is what one-round lifecycles cost, per lifecycle, by route.
type burstCost struct {
	lifecycles  int
	requests    map[string]int // by "METHOD route", the 304s left out
	notModified map[string]int // the 304s by "METHOD route": GitHub does not count them
}

func (c burstCost) per(n int) float64 { return float64(n) / float64(c.lifecycles) }

func (c burstCost) total(keep func(route string) bool) int {
	n := 0
	for r, k := range c.requests {
		if keep(r) {
			n += k
		}
	}
	return n
}

func isWrite(route string) bool { return !strings.HasPrefix(route, http.MethodGet+" ") }

func counted(route string) bool { return !strings.Contains(route, "access_tokens") }

// playBurst plays burstIssues one-round lifecycles (ask, answer, resolve) in one repository
// with a config file, pacing on and GitHub's content limit enforced: all asks at once, then
// all answers at once, then all resolutions at once when together is set, else one
// lifecycle after another. It returns the requests by route.
func playBurst(t *testing.T, together bool) burstCost {
	t.Helper()
	h := newBurstHarness(t)
	defer h.Close()
	playBurstSteps(t, h, together)
	checkBurstEnd(t, h)
	cost := burstCost{lifecycles: burstIssues, requests: map[string]int{}, notModified: map[string]int{}}
	for _, r := range h.Fake.Requests() {
		route := r.Method + " " + strings.TrimPrefix(r.Route, r.Method+" ")
		if r.Status == http.StatusNotModified {
			cost.notModified[route]++
			continue
		}
		cost.requests[route]++
	}
	return cost
}

// newBurstHarness is a paced app and a fake GitHub holding burstIssues open issues in one
// repository with a config file and the content limit on, its request log empty.
func newBurstHarness(t *testing.T) *replay.Harness {
	t.Helper()
	h, err := replay.NewHarnessWith(io.Discard, func(c *app.Config) {
		c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour = 80, 500
		c.PaceMinute = burstMinute
	})
	if err != nil {
		t.Fatal(err)
	}
	h.Fake.AddInstallation(1, "octo", chaosRepo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(chaosRepo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.SetFile(chaosRepo, ".github/clarify.yml", "sla: 4h\n")
	for i := 1; i <= burstIssues; i++ {
		h.Fake.OpenIssue(chaosRepo, i, "Issue "+strconv.Itoa(i), "maria")
	}
	h.Fake.SetContentLimit(fakegithub.ContentLimit{PerMinute: 80, PerHour: 500, Minute: burstMinute})
	h.Fake.ResetRequests()
	return h
}

// playBurstSteps sends the asks, answers and resolutions of every issue, each step to all
// issues at once when together is set, else one lifecycle after another.
func playBurstSteps(t *testing.T, h *replay.Harness, together bool) {
	t.Helper()
	steps := []func(i int) fakegithub.Delivery{
		func(i int) fakegithub.Delivery {
			d, _ := h.Fake.Comment(chaosRepo, i, "coder-agent", "/clarify @maria Per key or per IP?")
			return d
		},
		func(i int) fakegithub.Delivery {
			d, _ := h.Fake.Comment(chaosRepo, i, "maria", "Per key.")
			return d
		},
		func(i int) fakegithub.Delivery {
			d, _ := h.Fake.Comment(chaosRepo, i, "coder-agent", fmt.Sprintf("/clarify resolve CLR-%d-001 Per key.", i))
			return d
		},
	}
	send := func(ds []fakegithub.Delivery) { sendAtOnce(t, h, ds) }
	if together {
		for _, step := range steps {
			var ds []fakegithub.Delivery
			for i := 1; i <= burstIssues; i++ {
				ds = append(ds, step(i))
			}
			send(ds)
		}
		return
	}
	for i := 1; i <= burstIssues; i++ {
		for _, step := range steps {
			send([]fakegithub.Delivery{step(i)})
		}
	}
}

// checkBurstEnd asserts that every issue ended with one resolved clarification, that the
// sweep after the runs remembered every decision, and that GitHub refused no write.
func checkBurstEnd(t *testing.T, h *replay.Harness) {
	t.Helper()
	for i := 1; i <= burstIssues; i++ {
		l, err := h.Ledger(chaosRepo, i)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Clarifications) != 1 || l.Clarifications[0].Status != "resolved" {
			t.Fatalf("issue %d did not end with one resolved clarification: %+v", i, l.Clarifications)
		}
	}
	// The sweep that follows (bot serve runs one a minute) writes what the runs left for
	// it, the decisions of the memory among them: its requests count too.
	if _, err := h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := rememberedDecisions(t, h); n != burstIssues {
		t.Errorf("the memory holds %d decisions after %d resolves", n, burstIssues)
	}
	if n := h.Fake.ContentRefusals(); n != 0 {
		t.Errorf("GitHub refused %d writes", n)
	}
}

// rememberedDecisions counts the decisions in the repository's memory, each part verified.
func rememberedDecisions(t *testing.T, h *replay.Harness) int {
	t.Helper()
	_, desc, ok := h.Fake.RepoLabel(chaosRepo, ledger.DecisionsLabel)
	if !ok {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(desc[strings.LastIndex(desc, "#"):], "#%d", &n); err != nil {
		t.Fatalf("label description %q names no issue", desc)
	}
	owner, name, _ := strings.Cut(chaosRepo, "/")
	key := ledger.IssueLedgerKey(h.Config.LedgerKeyBytes(), owner, name, n)
	count := 0
	for _, c := range h.Fake.Comments(chaosRepo, n) {
		if c.User != h.Fake.BotLogin() {
			continue
		}
		_, ds, err := render.DecodeDecisions(c.Body, key)
		if err != nil {
			t.Fatalf("part %d of the memory: %v", c.ID, err)
		}
		count += len(ds)
	}
	return count
}

// TestThirtyAsksAtOnceCostWhatOneAtATimeCosts is issue 20's and 27's measure: a planning
// agent asks in 30 issues of one repository at once, then the maintainer answers them all
// and the agent resolves them all, against one lifecycle after another, with the decision
// memory and its offers on. Work that the parallel runs need together (the repository's
// config, whether its labels exist, the memory's write) is done once, a label is removed
// once, and a lifecycle costs at most 13 requests that count and 6.5 writes. `go test
// ./internal/replay -run TestThirtyAsks -v` prints the table by route, 304s apart.
func TestThirtyAsksAtOnceCostWhatOneAtATimeCosts(t *testing.T) {
	one, many := playBurst(t, false), playBurst(t, true)
	logBurstTable(t, one, many)
	checkBurstBudget(t, one, many)
	checkBurstShared(t, one, many)
}

// countedWrite keeps the writes that count against GitHub's limits.
func countedWrite(r string) bool { return counted(r) && isWrite(r) }

// memoryMaking keeps the routes of the writes that make a repository's decision memory,
// once: its issue opened, the label naming it, the issue signed and closed.
func memoryMaking(r string) bool {
	switch r {
	case "POST /repos/{owner}/{repo}/issues", "POST /repos/{owner}/{repo}/labels", "PATCH /repos/{owner}/{repo}/issues/{issue_number}":
		return true
	}
	return false
}

// logBurstTable prints, per lifecycle, the requests of each route one at a time and 30 at
// once, the 304s apart.
func logBurstTable(t *testing.T, one, many burstCost) {
	t.Helper()
	routes := map[string]bool{}
	for _, m := range []map[string]int{one.requests, many.requests, one.notModified, many.notModified} {
		for r := range m {
			routes[r] = true
		}
	}
	var names []string
	for r := range routes {
		if counted(r) {
			names = append(names, r)
		}
	}
	sort.Strings(names)
	t.Logf("%-80s %14s %14s", "per lifecycle", "one at a time", "30 at once")
	row := func(name string, a, b float64) { t.Logf("%-80s %14.2f %14.2f", name, a, b) }
	row("requests in all", one.per(one.total(counted)), many.per(many.total(counted)))
	row("writes", one.per(one.total(countedWrite)), many.per(many.total(countedWrite)))
	// The decision memory's issue is made, labelled and closed once a repository; its first
	// part is posted once too, among the comments.
	once := func(c burstCost) int { return c.total(countedWrite) - c.total(memoryMaking) - 1 }
	row("writes, the repository's one-time making of its memory apart", one.per(once(one)), many.per(once(many)))
	for _, r := range names {
		row(r, one.per(one.requests[r]), many.per(many.requests[r]))
	}
	total304 := func(c burstCost) int { return burstCost{requests: c.notModified}.total(counted) }
	row("answered 304 (not counted above)", one.per(total304(one)), many.per(total304(many)))
	for _, r := range names {
		if one.notModified[r]+many.notModified[r] > 0 {
			row("  304 "+r, one.per(one.notModified[r]), many.per(many.notModified[r]))
		}
	}
}

// checkBurstBudget asserts issue 27's budget, the memory and its offers on: what counts
// against the hourly limit (304s do not), and the writes, per lifecycle; and that 30 at
// once writes and asks no more than one at a time.
func checkBurstBudget(t *testing.T, one, many burstCost) {
	t.Helper()
	for _, c := range []struct {
		name string
		cost burstCost
	}{{"one at a time", one}, {"30 at once", many}} {
		if n := c.cost.per(c.cost.total(counted)); n > 13 {
			t.Errorf("%s: %.2f requests per lifecycle, want at most 13", c.name, n)
		}
		if n := c.cost.per(c.cost.total(countedWrite)); n > 6.5 {
			t.Errorf("%s: %.2f writes per lifecycle, want at most 6.5", c.name, n)
		}
	}
	writesOne := one.total(countedWrite)
	writesMany := many.total(countedWrite)
	if writesMany > writesOne {
		t.Errorf("30 at once wrote %d times, one at a time %d: parallel runs repeat each other's writes", writesMany, writesOne)
	}
	if all1, allN := one.total(counted), many.total(counted); float64(allN) > float64(all1)*1.02 {
		t.Errorf("30 at once made %d requests, one at a time %d", allN, all1)
	}
}

// checkBurstShared asserts that the parallel runs shared the config read, the label check
// and the label's creation, and removed each issue's label once.
func checkBurstShared(t *testing.T, one, many burstCost) {
	t.Helper()
	for _, r := range []string{
		"GET /repos/{owner}/{repo}/contents/{path}",
		"GET /repos/{owner}/{repo}/labels/{name}",
		"POST /repos/{owner}/{repo}/labels",
	} {
		if many.requests[r] > one.requests[r] {
			t.Errorf("%s: %d times for 30 asks at once, %d one at a time: the runs did not share it", r, many.requests[r], one.requests[r])
		}
	}
	if n := many.requests["DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"]; n > burstIssues {
		t.Errorf("%d label removals for %d lifecycles: a label was removed more than once", n, burstIssues)
	}
}
