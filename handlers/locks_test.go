package handlers

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestIssueLocksSerialiseOneIssueOnly(t *testing.T) {
	var l IssueLocks
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := l.Lock(context.Background(), "octo/widgets#42")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			if n > most.Load() {
				most.Store(n)
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			unlock()
		}()
	}
	other, err := l.Lock(context.Background(), "octo/widgets#43") // another issue is not held up
	if err != nil {
		t.Fatal(err)
	}
	other()
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d runs held issue #42 at once", most.Load())
	}
	if len(l.locks) != 0 {
		t.Errorf("%d locks left behind", len(l.locks))
	}
}
