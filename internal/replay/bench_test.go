package replay

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// BenchmarkDemoLifecycle plays the demo's lifecycle (ask, answer, follow-up, answer,
// resolve: five deliveries; without the demo's stale wait and wake-ups, so that it counts
// the protocol alone) and reports the GitHub requests one whole clarification costs, from
// the in-memory GitHub's request log (ns/op covers the whole lifecycle, the in-memory
// GitHub's own work and loopback HTTP included):
//
//	go test ./internal/replay -run '^$' -bench Lifecycle -benchtime 20x
func BenchmarkDemoLifecycle(b *testing.B) { benchLifecycle(b, demoLifecycle) }

const demoLifecycle = `repo octo/widgets
user maria write
bot coder-agent
issue #42 "Rate-limit the public API" by maria
coder-agent comments on #42:
  /clarify @maria Should the limit apply per API key or per client IP?
  Topic: rate-limit scope
  Options:
  a) per API key
  b) per client IP
  Fallback: a
wait 7m
maria comments on #42: Per API key: anonymous calls are already blocked at the gateway.
wait 2m
coder-agent comments on #42:
  /clarify followup CLR-42-001 Which limit per key: 100 or 1000 requests per minute?
wait 11m
maria comments on #42: 1000 per minute, with bursts of up to 100.
wait 1m
coder-agent comments on #42: /clarify resolve CLR-42-001 Per API key, 1000 requests/minute, bursts of 100.
`

// BenchmarkOneRoundLifecycle is the lifecycle issue 9 counts: an agent asks, a maintainer
// answers, the agent resolves.
func BenchmarkOneRoundLifecycle(b *testing.B) { benchLifecycle(b, oneRound) }

const oneRound = `repo octo/widgets
user maria write
bot coder-agent
issue #42 "Rate-limit the public API" by maria
coder-agent comments on #42: /clarify @maria Should the limit apply per API key or per client IP?
wait 7m
maria comments on #42: Per API key: anonymous calls are already blocked at the gateway.
wait 1m
coder-agent comments on #42: /clarify resolve CLR-42-001 Per API key.
`

// benchLifecycle plays scenario through the app b.N times and reports its requests. Label
// creations are reported apart: a repository pays them once, on its first clarification.
func benchLifecycle(b *testing.B, scenario string) {
	var reads, writes, labels, events float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h, err := NewHarness(io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		steps, err := fakegithub.ParseScenario(strings.NewReader(scenario))
		if err != nil {
			b.Fatal(err)
		}
		var ds []fakegithub.Delivery
		b.StartTimer()
		for _, st := range steps {
			out, err := h.Fake.Run(st)
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, out...)
			for _, d := range out {
				if _, err := h.Deliver(context.Background(), d); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.StopTimer()
		for _, r := range h.Fake.Requests() {
			switch {
			case strings.Contains(r.Route, "access_tokens"):
			case r.Method == http.MethodGet:
				reads++
			case r.Route == "POST /repos/{owner}/{repo}/labels":
				labels++
			default:
				writes++
			}
		}
		for _, d := range ds {
			if d.Event == "issue_comment" {
				events++
			}
		}
		h.Close()
		b.StartTimer()
	}
	b.ReportMetric(reads/float64(b.N), "reads/lifecycle")
	b.ReportMetric(writes/float64(b.N), "writes/lifecycle")
	b.ReportMetric(labels/float64(b.N), "label-creations/lifecycle")
	b.ReportMetric(events/float64(b.N), "comments/lifecycle")
	// The handler makes its requests one after another, so this is also the sequential
	// round trips to GitHub per event.
	b.ReportMetric((reads+writes+labels)/events, "requests/event")
}
