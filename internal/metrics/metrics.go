package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// Namespace prefixes every metric of the app's own.
const Namespace = "clarify"

// EventUnverified is the event label of a delivery refused before its signature was
// checked: its X-GitHub-Event header is anyone's to write, so it never becomes a label.
const EventUnverified = "unverified"

// Outcomes of a delivery refused before the scheduler sees it (the scheduler reports the
// rest: handlers.Delivery*).
const (
	OutcomeBadSignature = "bad_signature"
	OutcomeBadRequest   = "bad_request"
	OutcomeBusy         = "busy"
)

// Reasons the sweep visits an issue, as clarify_sweep_issues_visited_total labels them.
const (
	ReasonDue      = "due"
	ReasonWalk     = "walk"
	ReasonDeadlock = "deadlock"
)

// Metrics holds every collector of the app and the registry they are on.
type Metrics struct {
	// Registry is the app's own; Handler serves it.
	Registry *prometheus.Registry

	deliveries    *prometheus.CounterVec
	requests      *prometheus.CounterVec
	paceWaits     *prometheus.HistogramVec
	rateLimited   *prometheus.CounterVec
	transitions   *prometheus.CounterVec
	sweepDuration *prometheus.HistogramVec
	sweepVisits   *prometheus.CounterVec
}

// New returns the app's metrics on a fresh registry, with the Go runtime's and the
// process's standard collectors beside them.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "webhook_deliveries_total",
			Help: "Webhook deliveries by event and outcome: accepted, duplicate, busy, bad_signature, bad_request, bad_payload; accepted runs end ok or failed (after every retry).",
		}, []string{"event", "outcome"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "github_requests_total",
			Help: "Requests sent to GitHub's API, each attempt of a retry included, by method, route template and status code (304: revalidated from the cache; error: no answer).",
		}, []string{"method", "route", "status"}),
		paceWaits: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "github_paced_wait_seconds",
			Help:    "How long the pacer held a request back to keep an installation under GitHub's limits, by kind (write, read); requests sent at once are not observed.",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300},
		}, []string{"kind"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "github_rate_limited_total",
			Help: "Answers in which GitHub refused a request for a rate limit (403 or 429), by limit: secondary or primary.",
		}, []string{"limit"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "clarification_transitions_total",
			Help: "Clarifications saved in a new state (created pending, answered, stale, escalated, resolved, abandoned), by that state.",
		}, []string{"state"}),
		sweepDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "sweep_duration_seconds",
			Help:    "How long each sweep run took, by result (ok, failed: some issue or installation failed).",
			Buckets: []float64{0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600},
		}, []string{"result"}),
		sweepVisits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "sweep_issues_visited_total",
			Help: "Issues the sweep ran, by reason: due (its deadline came), walk (the index could not vouch for it), deadlock (read afresh or escalated for a cycle).",
		}, []string{"reason"}),
	}
	reg.MustRegister(m.deliveries, m.requests, m.paceWaits, m.rateLimited, m.transitions, m.sweepDuration, m.sweepVisits,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Series an operator alerts on exist from the start, at zero, so that rate() and
	// absent() work before the first event of each kind.
	for _, limit := range []string{"secondary", "primary"} {
		m.rateLimited.WithLabelValues(limit)
	}
	for _, s := range []clarify.Status{clarify.Pending, clarify.Answered, clarify.Stale, clarify.Escalated, clarify.Resolved, clarify.Abandoned} {
		m.transitions.WithLabelValues(string(s))
	}
	for _, r := range []string{ReasonDue, ReasonWalk, ReasonDeadlock} {
		m.sweepVisits.WithLabelValues(r)
	}
	return m
}

// Handler serves the registry in Prometheus's text (or OpenMetrics) format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry, EnableOpenMetrics: true})
}

// Delivery counts one delivery's outcome. event must come from a signed delivery (or be
// EventUnverified): GitHub's event names are a bounded set, a stranger's are not.
func (m *Metrics) Delivery(event, outcome string) {
	m.deliveries.WithLabelValues(event, outcome).Inc()
}

// Paced observes a request the pacer held back for d.
func (m *Metrics) Paced(write bool, d time.Duration) {
	kind := "read"
	if write {
		kind = "write"
	}
	m.paceWaits.WithLabelValues(kind).Observe(d.Seconds())
}

// RateLimited counts an answer that was GitHub's rate limit, "secondary" or "primary".
func (m *Metrics) RateLimited(limit string) {
	m.rateLimited.WithLabelValues(limit).Inc()
}

// Saved counts the clarifications whose state a run saved differs from the state it
// loaded (a new one counts in its first state). A run that takes several steps at once,
// a sweep long after a deadline, counts the last.
func (m *Metrics) Saved(before, after clarify.Ledger) {
	was := make(map[string]clarify.Status, len(before.Clarifications))
	for _, c := range before.Clarifications {
		was[c.ID] = c.Status
	}
	for _, c := range after.Clarifications {
		if s, ok := was[c.ID]; !ok || s != c.Status {
			m.transitions.WithLabelValues(string(c.Status)).Inc()
		}
	}
}

// Sweep observes one sweep run: how long it took, whether it failed, and how many issues
// it visited for each reason.
func (m *Metrics) Sweep(took time.Duration, failed bool, due, walk, deadlock int) {
	result := "ok"
	if failed {
		result = "failed"
	}
	m.sweepDuration.WithLabelValues(result).Observe(took.Seconds())
	m.sweepVisits.WithLabelValues(ReasonDue).Add(float64(due))
	m.sweepVisits.WithLabelValues(ReasonWalk).Add(float64(walk))
	m.sweepVisits.WithLabelValues(ReasonDeadlock).Add(float64(deadlock))
}

// Middleware returns the GitHub client middleware that counts each request by method,
// route template and status. apiPath is the path of the REST API's base URL ("/" on
// github.com, "/api/v3/" on GitHub Enterprise Server), which routes are read after.
// List it last among the client's middleware, so that it counts what reaches GitHub:
// every attempt of a retry, after the pacer's wait.
func (m *Metrics) Middleware(apiPath string) func(http.RoundTripper) http.RoundTripper {
	return func(next http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(r)
			m.requests.WithLabelValues(r.Method, Route(apiPath, r.URL.EscapedPath()), statusOf(resp, err)).Inc()
			return resp, err
		})
	}
}

// statusOf is a response's status label. httpcache answers a revalidated request with
// the cached 200 and X-From-Cache; GitHub's answer was 304, which costs no rate limit,
// and that is what an operator wants to see.
func statusOf(resp *http.Response, err error) string {
	switch {
	case err != nil || resp == nil:
		return "error"
	case ghtransport.Revalidated(resp):
		return strconv.Itoa(http.StatusNotModified)
	}
	return strconv.Itoa(resp.StatusCode)
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls the function, so a plain function can be a transport.
func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
