package clarify

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkApply measures the domain's CPU for one event in an issue that already holds
// 20 clarifications with threads:
//
//	go test ./clarify -run '^$' -bench Apply
func BenchmarkApply(b *testing.B) {
	p := DefaultPolicy()
	var steps []step
	for i := 0; i < 20; i++ {
		steps = append(steps, step{agent, fmt.Sprintf("/clarify @maria --non-blocking Question number %d about the export format?", i), ""})
		steps = append(steps, step{maria, fmt.Sprintf("Answer %d.", i), ""})
	}
	l, _ := play(p, steps...)
	ev := Event{Kind: EventComment, CommentID: 10_000, Actor: agent, Body: "/clarify followup CLR-42-007 And the delimiter?", At: t0}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Apply(l, ev, p, t0.Add(time.Minute))
	}
}
