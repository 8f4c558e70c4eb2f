package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/metrics"
)

func TestMiddlewareCountsByTemplateAndStatus(t *testing.T) {
	m := metrics.New()
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/comments") {
			w.Header().Set("X-From-Cache", "1") // as httpcache marks a revalidated answer
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer gh.Close()
	client := &http.Client{Transport: m.Middleware("/")(http.DefaultTransport)}
	for _, p := range []string{"/repos/a/b/issues/1", "/repos/c/d/issues/2", "/repos/a/b/issues/1/comments"} {
		resp, err := client.Get(gh.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for _, tc := range []struct {
		route, status string
		want          float64
	}{
		{"/repos/{owner}/{repo}/issues/{issue_number}", "200", 2},
		{"/repos/{owner}/{repo}/issues/{issue_number}/comments", "304", 1},
	} {
		if got := value(t, m, "clarify_github_requests_total", map[string]string{"method": "GET", "route": tc.route, "status": tc.status}); got != tc.want {
			t.Errorf("GET %s %s: %v, want %v", tc.route, tc.status, got, tc.want)
		}
	}
	if n := count(t, m, "clarify_github_requests_total"); n != 2 {
		t.Errorf("%d request series, want 2: the owners and numbers must not make series of their own", n)
	}
}

func TestSavedCountsEachChangeOfState(t *testing.T) {
	m := metrics.New()
	before := clarify.Ledger{Clarifications: []clarify.Clarification{{ID: "CLR-1-001", Status: clarify.Pending}, {ID: "CLR-1-002", Status: clarify.Answered}}}
	after := clarify.Ledger{Clarifications: []clarify.Clarification{{ID: "CLR-1-001", Status: clarify.Answered}, {ID: "CLR-1-002", Status: clarify.Answered},
		{ID: "CLR-1-003", Status: clarify.Pending}}}
	m.Saved(before, after)
	m.Saved(after, after) // a run that changed nothing counts nothing
	want := map[string]float64{"pending": 1, "answered": 1, "stale": 0, "resolved": 0}
	for state, n := range want {
		if got := value(t, m, "clarify_clarification_transitions_total", map[string]string{"state": state}); got != n {
			t.Errorf("%s: %v transitions, want %v", state, got, n)
		}
	}
}

func TestSweepAndPacingSeries(t *testing.T) {
	m := metrics.New()
	m.Sweep(1500*time.Millisecond, false, 2, 3, 1)
	m.Paced(true, 2*time.Second)
	m.RateLimited("secondary")
	if n := count(t, m, "clarify_sweep_duration_seconds") + count(t, m, "clarify_github_paced_wait_seconds"); n != 2 {
		t.Errorf("%d histogram series, want 2 (one sweep result, one pace kind)", n)
	}
	if got := value(t, m, "clarify_sweep_issues_visited_total", map[string]string{"reason": metrics.ReasonWalk}); got != 3 {
		t.Errorf("walk visits %v, want 3", got)
	}
}

// value is the value of the counter series of name with the given labels (and maybe
// others); it fails the test when there is none.
func value(t *testing.T, m *metrics.Metrics, name string, labels map[string]string) float64 {
	t.Helper()
	for _, s := range series(t, m, name) {
		have := map[string]string{}
		for _, l := range s.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		if subset(labels, have) {
			return s.GetCounter().GetValue()
		}
	}
	t.Fatalf("no series %s%v", name, labels)
	return 0
}

func subset(want, have map[string]string) bool {
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}

// count is how many series of name the registry holds.
func count(t *testing.T, m *metrics.Metrics, name string) int {
	t.Helper()
	return len(series(t, m, name))
}

func series(t *testing.T, m *metrics.Metrics, name string) []*dto.Metric {
	t.Helper()
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()
		}
	}
	return nil
}
