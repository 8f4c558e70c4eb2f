package decisions

import (
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func TestPendingWritesAtMostOnceAMinute(t *testing.T) {
	d1, d2 := clarify.Decision{ID: "CLR-42-001"}, clarify.Decision{ID: "CLR-43-001"}
	for name, tc := range map[string]struct {
		steps func(p *Pending) bool
		want  bool
	}{
		"theFirstDecisionIsWrittenAtOnce": {func(p *Pending) bool { return p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0) }, true},
		"oneNotedDuringAWriteWaitsForIt": {func(p *Pending) bool {
			p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0)
			return p.note(nil, "octo", "widgets", []clarify.Decision{d2}, t0)
		}, false},
		"oneWithinAMinuteOfAWriteWaits": {func(p *Pending) bool {
			p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0)
			p.done("octo", "widgets", []clarify.Decision{d1}, t0)
			return p.note(nil, "octo", "widgets", []clarify.Decision{d2}, t0.Add(30*time.Second))
		}, false},
		"oneAMinuteAfterAWriteIsWritten": {func(p *Pending) bool {
			p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0)
			p.done("octo", "widgets", []clarify.Decision{d1}, t0)
			return p.note(nil, "octo", "widgets", []clarify.Decision{d2}, t0.Add(memoryWriteEvery))
		}, true},
		"oneAfterAWriteThatFailedIsWrittenAtOnce": {func(p *Pending) bool {
			p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0)
			p.release("octo", "widgets")
			return p.note(nil, "octo", "widgets", []clarify.Decision{d2}, t0)
		}, true},
		"anotherRepositoryDoesNotWait": {func(p *Pending) bool {
			p.note(nil, "octo", "widgets", []clarify.Decision{d1}, t0)
			return p.note(nil, "octo", "gadgets", []clarify.Decision{d2}, t0)
		}, true},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.steps(&Pending{}); got != tc.want {
				t.Errorf("write now: %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPendingKeepsWhatNoWriteTook(t *testing.T) {
	var p Pending
	d1, d2 := clarify.Decision{ID: "CLR-42-001"}, clarify.Decision{ID: "CLR-43-001"}
	p.note(nil, "octo", "widgets", []clarify.Decision{d1, d1}, t0)
	p.note(nil, "octo", "widgets", []clarify.Decision{d2}, t0)
	if got := p.of("octo", "widgets"); len(got) != 2 {
		t.Fatalf("pending %+v, want each decision once", got)
	}
	p.done("octo", "widgets", []clarify.Decision{d1}, t0)
	if got := p.of("octo", "widgets"); len(got) != 1 || got[0].ID != d2.ID {
		t.Errorf("pending after the write of %s: %+v, want %s alone", d1.ID, got, d2.ID)
	}
	if w := p.waiting(); len(w) != 1 || w[0].repo != "widgets" {
		t.Errorf("waiting %+v, want octo/widgets", w)
	}
}
