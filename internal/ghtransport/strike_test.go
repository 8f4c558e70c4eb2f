package ghtransport

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// answerWith answers each request with what reply says at the time.
func answerWith(reply func() (http.Header, int, string)) http.RoundTripper {
	return roundTripperFunc(func(*http.Request) (*http.Response, error) {
		h, status, body := reply()
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
}

// noWaitRefusal is a secondary limit that names no wait.
var noWaitRefusal = answerWith(func() (http.Header, int, string) {
	return http.Header{}, http.StatusForbidden, `{"message":"You have exceeded a secondary rate limit."}`
})

// freeWrites sends writes of installation 1 until one waits, and returns how many went at
// once (at most limit+1 are sent).
func freeWrites(t *testing.T, c *pacedClock, mw http.RoundTripper, limit int) int {
	t.Helper()
	before := len(c.waits)
	for i := range limit + 1 {
		send(t, mw, 1, http.MethodPost)
		if len(c.waits) > before {
			return i
		}
	}
	return limit + 1
}

// TestARefusalThatNamesItsWaitHoldsExactlyThat: a secondary limit's Retry-After, or a spent
// primary quota's x-ratelimit-reset, holds the installation for what it names, each time
// alike. The secondary limit strikes too, so that the writes after it go slower than those
// it refused (three in a row: down to the floor, a quarter); the primary quota spent does
// not, as its reset brings the whole quota back.
func TestARefusalThatNamesItsWaitHoldsExactlyThat(t *testing.T) {
	for name, tc := range map[string]struct {
		wait   time.Duration
		header func(now time.Time) http.Header
		after  int
	}{
		"retryAfter": {30 * time.Second, func(time.Time) http.Header { return http.Header{"Retry-After": {"30"}} }, 20},
		"reset": {5 * time.Minute, func(now time.Time) http.Header {
			return http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(now.Add(5*time.Minute).Unix(), 10)}}
		}, 80},
	} {
		t.Run(name, func(t *testing.T) {
			var c pacedClock
			p := c.pacer()
			refusing := p.Middleware()(answerWith(func() (http.Header, int, string) { return tc.header(c.now), http.StatusForbidden, "" }))
			for range 3 {
				send(t, refusing, 1, http.MethodPost)
			}
			if !slices.Equal(c.waits, []time.Duration{tc.wait, tc.wait}) {
				t.Errorf("waits %v: want each refusal to hold exactly %v", c.waits, tc.wait)
			}
			c.now = c.now.Add(tc.wait + 2*time.Minute)
			if n := freeWrites(t, &c, p.Middleware()(answer(http.Header{}, http.StatusCreated)), 80); n != tc.after {
				t.Errorf("%d writes went in the next minute, want %d", n, tc.after)
			}
		})
	}
}

// TestASecondaryLimitThatNamesNoWaitStrikesOnce: it holds the installation a minute and
// halves its bounds; the writes already on their way when it came are of the same strike.
func TestASecondaryLimitThatNamesNoWaitStrikesOnce(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	sent := c.now // another write let go, on its way while the first is refused
	c.now = c.now.Add(time.Second)
	send(t, p.Middleware()(noWaitRefusal), 1, http.MethodPost)
	// A refusal of a write let go before the strike was recorded: no second strike.
	_ = p.store(1).Refused(t.Context(), 1, sent, c.now, Limit{Kind: LimitSecondary})
	send(t, p.Middleware()(answer(http.Header{}, http.StatusOK)), 1, http.MethodGet)
	if !slices.Equal(c.waits, []time.Duration{time.Minute}) {
		t.Errorf("waits %v: want the installation held a minute", c.waits)
	}
	c.now = c.now.Add(time.Minute)
	if n := freeWrites(t, &c, p.Middleware()(answer(http.Header{}, http.StatusCreated)), 80); n != 40 {
		t.Errorf("%d writes went in the next minute, want 40: one strike halves the bounds", n)
	}
}

// TestStrikesInARowHoldLongerUpToFiveMinutes: a minute, doubled by each strike in a row,
// up to five; the bounds stop at a quarter.
func TestStrikesInARowHoldLongerUpToFiveMinutes(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	refusing := p.Middleware()(noWaitRefusal)
	for range 7 {
		send(t, refusing, 1, http.MethodPost)
	}
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 5 * time.Minute, 5 * time.Minute, 5 * time.Minute}
	if !slices.Equal(c.waits, want) {
		t.Errorf("waits %v, want %v", c.waits, want)
	}
	c.now = c.now.Add(StrikeMaxHold + time.Minute)
	if n := freeWrites(t, &c, p.Middleware()(answer(http.Header{}, http.StatusCreated)), 80); n != 20 {
		t.Errorf("%d writes went in the next minute, want 20: strikes lower the bounds to a quarter, no lower", n)
	}
}

// TestStrikesAreForgottenOneEachQuietSpell: each StrikeQuiet without a strike forgets one,
// so the bounds come back, and a strike after they are all forgotten holds a minute again.
func TestStrikesAreForgottenOneEachQuietSpell(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	refusing, ok := p.Middleware()(noWaitRefusal), p.Middleware()(answer(http.Header{}, http.StatusCreated))
	send(t, refusing, 1, http.MethodPost)
	send(t, refusing, 1, http.MethodPost) // held a minute, then the second strike
	for _, want := range []int{40, 80} {
		c.now = c.now.Add(StrikeQuiet)
		if n := freeWrites(t, &c, ok, 80); n != want {
			t.Errorf("%d writes went at once, want %d after one more quiet spell", n, want)
		}
	}
	c.now = c.now.Add(2 * time.Minute)
	c.waits = nil
	send(t, refusing, 1, http.MethodPost)
	send(t, ok, 1, http.MethodGet)
	if !slices.Equal(c.waits, []time.Duration{time.Minute}) {
		t.Errorf("waits %v: a strike after the others are forgotten holds a minute", c.waits)
	}
}

func TestTheStrikeRule(t *testing.T) {
	holds := map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 4: 5 * time.Minute, 50: 5 * time.Minute}
	for n, want := range holds {
		if got := StrikeHold(n); got != want {
			t.Errorf("StrikeHold(%d) = %v, want %v", n, got, want)
		}
	}
	for _, l := range []struct {
		limit   Limit
		strikes bool
		wait    time.Duration
	}{
		{Limit{Kind: LimitSecondary, Wait: 30 * time.Second, Named: true}, true, 30 * time.Second},
		{Limit{Kind: LimitSecondary, Wait: time.Minute}, true, 2 * time.Minute},
		{Limit{Kind: LimitPrimary, Wait: time.Hour, Named: true}, false, time.Hour},
	} {
		if got, wait := l.limit.Strikes(), l.limit.StrikeWait(2); got != l.strikes || got && wait != l.wait {
			t.Errorf("%+v: strikes %v, holds %v at the second strike; want %v, %v", l.limit, got, wait, l.strikes, l.wait)
		}
	}
	lim := PaceLimits{PerMinute: 80, PerHour: -1}
	for n, want := range []int{80, 40, 20, 20, 20} {
		if got := lim.Struck(n); got.PerMinute != want || got.PerHour != -1 {
			t.Errorf("Struck(%d) = %d a minute, %d an hour; want %d, -1 (no bound stays none)", n, got.PerMinute, got.PerHour, want)
		}
	}
	if got := (PaceLimits{PerMinute: 3, PerHour: 1}).Struck(5); got.PerMinute != 1 || got.PerHour != 1 {
		t.Errorf("Struck(5) of 3 and 1 = %+v, want at least one write each", got)
	}
	struck := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	decays := map[time.Duration]int{-time.Minute: 3, 0: 3, StrikeQuiet - 1: 3, StrikeQuiet: 2, 2 * StrikeQuiet: 1, 10 * StrikeQuiet: 0}
	for since, want := range decays {
		if got := DecayStrikes(3, struck, struck.Add(since)); got != want {
			t.Errorf("DecayStrikes(3) %v after the last = %d, want %d", since, got, want)
		}
	}
}
