package handlers

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestMemoryKeepsAnEntryFreshForItsTTLAndStaleAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := memory[string]{ttl: 5 * time.Minute, now: func() time.Time { return now }}
	m.put("octo/widgets", "v1")
	now = now.Add(5*time.Minute - time.Second)
	if v, ok := m.get("octo/widgets"); !ok || v != "v1" {
		t.Fatalf("within its ttl: %q, %v", v, ok)
	}
	now = now.Add(time.Second)
	if _, ok := m.get("octo/widgets"); ok {
		t.Error("at its ttl an entry is no longer fresh")
	}
	if v, fresh, ok := m.lookup("octo/widgets"); !ok || fresh || v != "v1" {
		t.Errorf("a stale entry is still there for who would rather have it: %q fresh=%v ok=%v", v, fresh, ok)
	}
	if old := m.update("octo/widgets", func(old string) string { return old + "+" }); old != "" {
		t.Errorf("update starts from the zero value, not a stale one: old %q", old)
	}
	if v, ok := m.get("octo/widgets"); !ok || v != "+" {
		t.Errorf("a put renews the ttl: %q, %v", v, ok)
	}
}

func TestMemoryWithoutTTLNeverGoesStaleAndStartsAfreshPastItsBound(t *testing.T) {
	var m memory[int]
	for i := range maxRemembered {
		m.put(strconv.Itoa(i), i)
	}
	if v, ok := m.get("0"); !ok || v != 0 {
		t.Fatalf("an entry without a ttl stays: %v, %v", v, ok)
	}
	m.put("one more", 1)
	if _, ok := m.get("0"); ok {
		t.Error("past maxRemembered keys the memory starts afresh")
	}
	if v, ok := m.get("one more"); !ok || v != 1 {
		t.Errorf("the entry that overflowed it is kept: %v, %v", v, ok)
	}
}

// TestActiveIssuesCountsDeliveriesInFlight: an issue stays active while any accepted
// delivery for it is running, whatever order they end in.
func TestActiveIssuesCountsDeliveriesInFlight(t *testing.T) {
	var a activeIssues
	var wg sync.WaitGroup
	ends := make(chan func(), 64)
	for range 64 {
		wg.Add(1)
		go func() { defer wg.Done(); ends <- a.begin("octo/widgets#42") }()
	}
	wg.Wait()
	close(ends)
	var all []func()
	for end := range ends {
		all = append(all, end)
	}
	for _, end := range all[:63] {
		wg.Add(1)
		go func() { defer wg.Done(); end() }()
	}
	wg.Wait()
	if !a.has("octo/widgets#42") {
		t.Fatal("one delivery is still in flight")
	}
	all[63]()
	if a.has("octo/widgets#42") {
		t.Error("every delivery has ended")
	}
	a.saved("octo/widgets#42", true)
	if !a.has("octo/widgets#42") {
		t.Error("a saved open clarification keeps the issue active")
	}
	a.saved("octo/widgets#42", false)
	if a.has("octo/widgets#42") || a.has("octo/widgets#43") {
		t.Error("nothing open, nothing in flight: not active")
	}
}
