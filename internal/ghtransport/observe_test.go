package ghtransport

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestRetryTransientTellsOnLimitOfEachRefusal: the metrics count every answer that was a
// rate limit, by limit, retried or not; a permission refusal is none.
func TestRetryTransientTellsOnLimitOfEachRefusal(t *testing.T) {
	clock := newRetryClock()
	opts := clock.options()
	var mu sync.Mutex
	var limits []string
	opts.OnLimit = func(limit string) {
		mu.Lock()
		defer mu.Unlock()
		limits = append(limits, limit)
	}
	script := []scriptedReply{replySecondaryLimit(3), replyPrimaryLimit(http.StatusForbidden, 2*time.Second), replyCreated(), replyRefusal()}
	_, client := newScriptedGitHub(t, script, RetryTransient(opts))
	if err := callGitHub(context.Background(), client, http.MethodPost); err != nil {
		t.Fatal(err)
	}
	_ = callGitHub(context.Background(), client, http.MethodPost) // refused for good
	if want := []string{"secondary", "primary"}; !slices.Equal(limits, want) {
		t.Errorf("OnLimit heard %v, want %v", limits, want)
	}
}

// TestPacerTellsOnWaitOfWritesHeldBack: a write sent at once is not observed; one the
// spacing holds back is, with its wait.
func TestPacerTellsOnWaitOfWritesHeldBack(t *testing.T) {
	now := retryEpoch
	var waits []time.Duration
	p := &Pacer{Spacing: time.Second, Now: func() time.Time { return now },
		Sleep:  func(context.Context, time.Duration) error { return nil },
		OnWait: func(write bool, d time.Duration) { waits = append(waits, d) }}
	for range 2 {
		if _, err := p.wait(context.Background(), 1, true); err != nil {
			t.Fatal(err)
		}
	}
	if want := []time.Duration{time.Second}; !slices.Equal(waits, want) {
		t.Errorf("OnWait heard %v, want %v", waits, want)
	}
}
