package replay

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// BenchmarkDemoLifecycle plays the demo (ask, answer, follow-up, answer, resolve: five
// deliveries) and reports the GitHub requests one whole clarification costs, from the
// in-memory GitHub's request log (ns/op covers the whole lifecycle, the in-memory GitHub's
// own work and loopback HTTP included):
//
//	go test ./internal/replay -run '^$' -bench DemoLifecycle -benchtime 20x
func BenchmarkDemoLifecycle(b *testing.B) {
	var reads, writes, events float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h, err := NewHarness(io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		steps, err := fakegithub.ParseScenario(strings.NewReader(demoScenario))
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
	b.ReportMetric(events/float64(b.N), "comments/lifecycle")
	// The handler makes its requests one after another, so this is also the sequential
	// round trips to GitHub per event.
	b.ReportMetric((reads+writes)/events, "requests/event")
}
