package app_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/replay"
)

// TestMetricsAfterALifecycle scrapes /metrics after a clarification went stale, was
// escalated by the sweep and resolved, and a stranger sent a delivery with a bad
// signature: every series docs/app.md lists is there, with the values that lifecycle
// must give, and no route label holds an owner, a repository or a number.
func TestMetricsAfterALifecycle(t *testing.T) {
	h := afterALifecycle(t)
	got := scrape(t, h.AppServer.URL+"/metrics")
	at := func(name string, labels ...string) float64 {
		t.Helper()
		v, ok := got.value(name, labels...)
		if !ok {
			t.Errorf("no series %s%v", name, labels)
		}
		return v
	}
	accepted := at("clarify_webhook_deliveries_total", "event", "issue_comment", "outcome", "accepted")
	if ok := at("clarify_webhook_deliveries_total", "event", "issue_comment", "outcome", "ok"); accepted < 3 || ok != accepted {
		t.Errorf("issue_comment deliveries: %v accepted, %v ran ok; want at least 3, all ok", accepted, ok)
	}
	if n := at("clarify_webhook_deliveries_total", "event", "unverified", "outcome", "bad_signature"); n != 1 {
		t.Errorf("%v deliveries refused for their signature, want 1", n)
	}
	if n := at("clarify_github_requests_total", "method", "POST", "route", "/repos/{owner}/{repo}/issues/{issue_number}/comments", "status", "201"); n < 3 {
		t.Errorf("%v comments posted, want at least 3 (the status with the round, the stale ping, the escalation)", n)
	}
	for _, s := range got.series("clarify_github_requests_total") {
		if r := s.labels["route"]; strings.Contains(r, "{param}") || strings.Contains(r, "{id}") {
			t.Errorf("route %q is not one of the routes the app knows: add it to internal/metrics", r)
		}
	}
	for state, want := range map[string]float64{"pending": 1, "stale": 1, "escalated": 1, "resolved": 1, "abandoned": 0} {
		if n := at("clarify_clarification_transitions_total", "state", state); n != want {
			t.Errorf("%v clarifications saved %s, want %v", n, state, want)
		}
	}
	if n := at("clarify_sweep_duration_seconds_count", "result", "ok"); n < 3 {
		t.Errorf("%v sweeps observed, want one per wait of the scenario (3)", n)
	}
	if n := at("clarify_sweep_issues_visited_total", "reason", "due"); n < 2 {
		t.Errorf("%v due visits, want at least 2 (stale, then escalated)", n)
	}
	at("clarify_sweep_issues_visited_total", "reason", "walk")
	if n := at("clarify_github_paced_wait_seconds_count", "kind", "write"); n < 1 {
		t.Errorf("%v writes paced, want some: writes are 5 ms apart", n)
	}
	at("clarify_github_rate_limited_total", "limit", "secondary")
	at("go_goroutines")
	at("process_resident_memory_bytes")
}

// afterALifecycle is a running app that played the stale_then_escalated scenario (with
// writes paced 5 ms apart) and then refused a stranger's delivery with a bad signature.
func afterALifecycle(t *testing.T) *replay.Harness {
	t.Helper()
	h, err := replay.NewHarnessWith(io.Discard, func(c *app.Config) {
		// Writes a few milliseconds apart, so that the pacer holds some back.
		c.PaceSpacing = 5 * time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	scenario, err := os.ReadFile("../replay/testdata/scenarios/stale_then_escalated.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.PlayScenario(context.Background(), h, "stale_then_escalated", bytes.NewReader(scenario)); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, h.HookURL(), strings.NewReader(`{"action":"created"}`))
	req.Header.Set("X-GitHub-Event", "a-name-of-the-sender's-choosing")
	req.Header.Set("X-Hub-Signature-256", "sha256="+strings.Repeat("0", 64))
	resp, err := h.AppServer.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return h
}

// scraped is a Prometheus text exposition, parsed as far as these tests need.
type scraped []scrapedSeries

type scrapedSeries struct {
	name   string
	labels map[string]string
	value  float64
}

var labelPair = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

func scrape(t *testing.T, url string) scraped {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	var out scraped
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		s := scrapedSeries{name: line[:i], labels: map[string]string{}, value: v}
		if j := strings.IndexByte(line[:i], '{'); j >= 0 {
			s.name = line[:j]
			for _, m := range labelPair.FindAllStringSubmatch(line[j:i], -1) {
				s.labels[m[1]] = m[2]
			}
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func (s scraped) series(name string) []scrapedSeries {
	var out []scrapedSeries
	for _, x := range s {
		if x.name == name {
			out = append(out, x)
		}
	}
	return out
}

// value is the value of the series of name that has the given label pairs (and maybe others).
func (s scraped) value(name string, pairs ...string) (float64, bool) {
next:
	for _, x := range s.series(name) {
		for i := 0; i+1 < len(pairs); i += 2 {
			if x.labels[pairs[i]] != pairs[i+1] {
				continue next
			}
		}
		return x.value, true
	}
	return 0, false
}
