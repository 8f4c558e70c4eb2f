package ghtransport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// transportChain is the app's order of client middleware (retry outermost, then the
// count, then the pacer) around next.
func transportChain(opts RetryOptions, p *Pacer, next http.RoundTripper) http.RoundTripper {
	return RetryTransient(opts)(CountRequests(p.Middleware()(next)))
}

// TestASecondaryLimitThatNamesNoWaitHoldsEveryClientOfTheInstallationAMinuteThenTwo: a 403
// secondary limit without Retry-After holds the refused write and every other client of
// the installation a minute (GitHub: "wait for at least one minute"), through the one hold
// the pacer keeps, and a second refusal twice as long (GitHub: an exponentially
// increasing wait); another installation is not held.
func TestASecondaryLimitThatNamesNoWaitHoldsEveryClientOfTheInstallationAMinuteThenTwo(t *testing.T) {
	clock := newRetryClock()
	p := &Pacer{Now: clock.Now, Sleep: clock.Sleep}
	start := clock.Now()
	var writer, reader http.RoundTripper
	var do func(rt http.RoundTripper, inst int64, method string) int
	var mu sync.Mutex
	sent := map[string]time.Duration{}
	limits := 0
	// While the write waits out its second limit, another client reads for the same
	// installation, and for another one.
	during := func() {
		do(reader, 2, http.MethodGet)
		do(reader, 1, http.MethodGet)
	}
	github := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		inst, _ := InstallationOf(r.Context())
		mu.Lock()
		defer mu.Unlock()
		sent[fmt.Sprintf("%s %d", r.Method, inst)] = clock.Now().Sub(start)
		if r.Method == http.MethodPost && limits < 2 {
			if limits++; limits == 2 {
				clock.mu.Lock()
				clock.during = during
				clock.mu.Unlock()
			}
			return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{"X-Ratelimit-Remaining": {"4000"}},
				Body: io.NopCloser(strings.NewReader(`{"message":"You have exceeded a secondary rate limit."}`))}, nil
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
	})
	opts := clock.options()
	opts.MaxWait, opts.MaxTotalWait = 5*time.Minute, 5*time.Minute
	writer, reader = transportChain(opts, p, github), transportChain(opts, p, github)
	do = func(rt http.RoundTripper, inst int64, method string) int {
		req, _ := http.NewRequestWithContext(WithInstallation(context.Background(), inst), method, "http://api.invalid/x", nil)
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		return resp.StatusCode
	}
	if got := do(writer, 1, http.MethodPost); got != http.StatusOK {
		t.Fatalf("the write ended %d, want it sent again and answered 200", got)
	}
	if w := clock.recorded(); !slices.Equal(w, []time.Duration{time.Minute, 2 * time.Minute, time.Minute}) {
		t.Errorf("waits %v, want the write's minute after the first limit, the other client's two after the second, and the write's minute", w)
	}
	if sent["GET 2"] != time.Minute {
		t.Errorf("installation 2's read went at %v, want at once (1m0s, the second limit): the hold is installation 1's", sent["GET 2"])
	}
	if sent["GET 1"] != 3*time.Minute {
		t.Errorf("installation 1's other client read at %v, want two minutes after the second limit (3m0s)", sent["GET 1"])
	}
}

func TestReadLimitReadsEachSignalOnce(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	reset := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	secondary := `{"message":"You have exceeded a secondary rate limit."}`
	tests := map[string]struct {
		status int
		header http.Header
		body   string
		want   Limit
	}{
		"retryAfterIsASecondaryLimitOfThatLong": {403, http.Header{"Retry-After": {"30"}}, secondary, Limit{Kind: LimitSecondary, Wait: 30 * time.Second, Named: true}},
		"tooManyRequestsWithRetryAfter":         {429, http.Header{"Retry-After": {"5"}}, "", Limit{Kind: LimitSecondary, Wait: 5 * time.Second, Named: true}},
		"spentQuotaWaitsUntilReset": {403, http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {reset(20 * time.Minute)}}, "",
			Limit{Kind: LimitPrimary, Wait: 20 * time.Minute, Named: true, Spread: 20 * time.Minute}},
		"secondaryMessageWithoutWaitHoldsAMinute": {403, http.Header{"X-Ratelimit-Remaining": {"4000"}}, secondary, Limit{Kind: LimitSecondary, Wait: time.Minute}},
		"abuseMessageOfOldIsASecondaryLimit":      {403, http.Header{}, `{"message":"You have triggered an abuse detection mechanism."}`, Limit{Kind: LimitSecondary, Wait: time.Minute}},
		"permissionRefusalIsNoLimit":              {403, http.Header{}, `{"message":"Resource not accessible by integration"}`, Limit{}},
		"fewRequestsLeftSpreadsTheRest": {200, http.Header{"X-Ratelimit-Remaining": {"9"}, "X-Ratelimit-Reset": {reset(10 * time.Minute)}}, "",
			Limit{Spread: time.Minute}},
		"plentyLeftSaysNothing": {200, http.Header{"X-Ratelimit-Remaining": {"4000"}, "X-Ratelimit-Reset": {reset(time.Hour)}}, "", Limit{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status, Header: tc.header, Body: io.NopCloser(strings.NewReader(tc.body))}
			if got := ReadLimit(resp, now); got != tc.want {
				t.Errorf("ReadLimit = %+v, want %+v", got, tc.want)
			}
			if b, _ := io.ReadAll(resp.Body); string(b) != tc.body {
				t.Errorf("the body left for the caller is %q, want %q", b, tc.body)
			}
		})
	}
}
