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
	if !slices.Equal(c.waits, []time.Duration{time.Minute + 60*time.Millisecond}) {
		t.Errorf("the 81st write waited %v, want a minute and a thousandth after the first's answer", c.waits)
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
	// Six full minutes of 80, then 20 more; the 501st waits an hour and a thousandth after
	// the first's answer.
	if got := c.now.Sub(start); got != time.Hour+3600*time.Millisecond {
		t.Errorf("501 writes took %v, want 1h0m3.6s", got)
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
