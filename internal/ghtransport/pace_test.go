package ghtransport

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pacedClock is a clock that sleeping moves, recording each sleep.
type pacedClock struct {
	now   time.Time
	waits []time.Duration
}

func (c *pacedClock) pacer() *Pacer {
	c.now = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	return &Pacer{Now: func() time.Time { return c.now }, Sleep: func(_ context.Context, d time.Duration) error {
		c.waits = append(c.waits, d)
		c.now = c.now.Add(d)
		return nil
	}}
}

// send runs one request through a pacer's middleware for installation inst.
func send(t *testing.T, mw http.RoundTripper, inst int64, method string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(WithInstallation(context.Background(), inst), method, "http://api.invalid/x", nil)
	if _, err := mw.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
}

func answer(header http.Header, status int) http.RoundTripper {
	return roundTripperFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Header: header, Body: http.NoBody}, nil
	})
}

func TestPacerKeepsAnInstallationUnderEightyWritesAMinute(t *testing.T) {
	var c pacedClock
	mw := c.pacer().Middleware()(answer(http.Header{}, http.StatusCreated))
	for range 80 {
		send(t, mw, 1, http.MethodPost)
	}
	if len(c.waits) != 0 {
		t.Fatalf("80 writes in a minute are within GitHub's limit, yet the pacer waited %v", c.waits)
	}
	send(t, mw, 1, http.MethodPost)
	if !slices.Equal(c.waits, []time.Duration{time.Minute + 5*time.Second}) {
		t.Errorf("the 81st write waited %v, want until the first leaves the minute, with 5 seconds' margin", c.waits)
	}
	for range 100 {
		send(t, mw, 1, http.MethodGet)
	}
	if len(c.waits) != 1 {
		t.Errorf("reads were paced: %v", c.waits)
	}
}

func TestPacerKeepsAnInstallationUnderFiveHundredWritesAnHour(t *testing.T) {
	var c pacedClock
	mw := c.pacer().Middleware()(answer(http.Header{}, http.StatusCreated))
	start := c.now
	for range 501 {
		send(t, mw, 1, http.MethodPost)
	}
	// Six full minutes of 80, then 20 more; the 501st waits for the first to be an hour
	// old, and the margin's 5 seconds.
	if got := c.now.Sub(start); got != time.Hour+5*time.Second {
		t.Errorf("501 writes took %v, want 1h0m5s", got)
	}
}

func TestPacerSharesOneWindowPerInstallationAcrossClients(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	a := p.Middleware()(answer(http.Header{}, http.StatusCreated))
	b := p.Middleware()(answer(http.Header{}, http.StatusCreated))
	for range 40 {
		send(t, a, 1, http.MethodPost)
		send(t, b, 1, http.MethodPost)
	}
	send(t, b, 2, http.MethodPost)
	if len(c.waits) != 0 {
		t.Fatalf("waited %v within the limit", c.waits)
	}
	send(t, a, 1, http.MethodPost)
	if len(c.waits) != 1 {
		t.Errorf("two clients of one installation must share one window: waits %v", c.waits)
	}
}

func TestPacerHoldsEveryRequestOfAnInstallationGitHubToldToWait(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	limited := p.Middleware()(answer(http.Header{"Retry-After": {"30"}}, http.StatusForbidden))
	other := p.Middleware()(answer(http.Header{}, http.StatusOK))
	send(t, limited, 1, http.MethodPost)
	send(t, other, 1, http.MethodGet)
	send(t, other, 2, http.MethodGet)
	if !slices.Equal(c.waits, []time.Duration{30 * time.Second}) {
		t.Errorf("waits %v: want the installation's next request held 30s, and no other installation's", c.waits)
	}
}

func TestPacerSpreadsTheLastRequestsBeforeThePrimaryLimitResets(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	reset := c.now.Add(10 * time.Minute).Unix()
	mw := p.Middleware()(answer(http.Header{"X-Ratelimit-Remaining": {"9"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset, 10)}}, http.StatusOK))
	send(t, mw, 1, http.MethodGet)
	send(t, mw, 1, http.MethodGet)
	if !slices.Equal(c.waits, []time.Duration{time.Minute}) {
		t.Errorf("waits %v: 9 requests left for 10 minutes should come a minute apart", c.waits)
	}
}

func TestPacerHoldsTheInstallationAfterASecondaryLimitThatNamesNoTime(t *testing.T) {
	var c pacedClock
	p := c.pacer()
	limited := p.Middleware()(roundTripperFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(`{"message":"You have exceeded a secondary rate limit."}`))}, nil
	}))
	refused := p.Middleware()(roundTripperFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(`{"message":"Resource not accessible by integration"}`))}, nil
	}))
	other := p.Middleware()(answer(http.Header{}, http.StatusOK))
	send(t, refused, 2, http.MethodPost) // a refusal holds nothing
	send(t, other, 2, http.MethodGet)
	send(t, limited, 1, http.MethodPost)
	send(t, other, 1, http.MethodGet)
	if !slices.Equal(c.waits, []time.Duration{time.Minute}) {
		t.Errorf("waits %v: want the installation's next request, from another client, held a minute", c.waits)
	}
}

// skewedGitHub counts an installation's writes as GitHub's secondary limit does, in a
// sliding minute, but on its own clock: a write reaches GitHub a little after the pacer
// lets it through, and GitHub's clock is not the pacer's, so its minute, seen from the
// pacer's clock, lasts skew longer. A write past the limit is refused with Retry-After.
type skewedGitHub struct {
	clock     *pacedClock
	skew      time.Duration
	perMinute int
	sent      []time.Time
	refused   int
}

func (g *skewedGitHub) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
	}
	now := g.clock.now
	cut := now.Add(-time.Minute - g.skew)
	for len(g.sent) > 0 && !g.sent[0].After(cut) {
		g.sent = g.sent[1:]
	}
	if len(g.sent) >= g.perMinute {
		g.refused++
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"60"}}, Body: http.NoBody}, nil
	}
	g.sent = append(g.sent, now)
	return &http.Response{StatusCode: http.StatusCreated, Header: http.Header{}, Body: http.NoBody}, nil
}

// TestPacerLeavesRoomForSkewUnderTheContentLimit sends a burst of 300 writes (some 50 asks'
// worth) through the pacer at its default limits to a GitHub whose minute runs a few
// seconds longer than the pacer's: none may be refused, since GitHub answers repeated hits
// with longer blocks. It prints the burst's time at each skew.
func TestPacerLeavesRoomForSkewUnderTheContentLimit(t *testing.T) {
	for _, skew := range []time.Duration{0, 2 * time.Second, 4 * time.Second} {
		var c pacedClock
		p := c.pacer()
		gh := &skewedGitHub{clock: &c, skew: skew, perMinute: DefaultWritesPerMinute}
		mw := p.Middleware()(gh)
		start := c.now
		for range 300 {
			send(t, mw, 1, http.MethodPost)
		}
		t.Logf("GitHub's minute %v longer: 300 writes in %v, %d refused", skew, c.now.Sub(start), gh.refused)
		if gh.refused != 0 {
			t.Errorf("GitHub's minute %v longer than the pacer's: %d of 300 writes refused", skew, gh.refused)
		}
	}
}
