package handlers

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCacheLoadIsSharedByCallersAtTheSameMoment: twenty runs that miss one key together
// cost one fetch; a failed fetch is not remembered, so the next caller fetches again.
func TestCacheLoadIsSharedByCallersAtTheSameMoment(t *testing.T) {
	var m cache[int]
	var fetches atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	var fetchedBy atomic.Int32
	for range 20 {
		wg.Go(func() {
			v, fetched, err := m.load("octo/widgets", func() (int, bool, error) {
				fetches.Add(1)
				<-release
				return 7, true, nil
			})
			if err != nil || v != 7 {
				t.Errorf("load = %d, %v; want 7", v, err)
			}
			if fetched {
				fetchedBy.Add(1)
			}
		})
	}
	time.Sleep(20 * time.Millisecond) // let the callers pile up on the flight
	close(release)
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches for 20 callers at once, want 1", n)
	}
	if n := fetchedBy.Load(); n != 1 {
		t.Errorf("%d callers were told they fetched, want 1", n)
	}

	boom := errors.New("502")
	if _, _, err := m.load("octo/gadgets", func() (int, bool, error) { return 0, false, boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the fetch's", err)
	}
	v, fetched, _ := m.load("octo/gadgets", func() (int, bool, error) { return 3, true, nil })
	if v != 3 || !fetched {
		t.Errorf("after a failed fetch: %d, fetched %v; want a new fetch giving 3", v, fetched)
	}
}
