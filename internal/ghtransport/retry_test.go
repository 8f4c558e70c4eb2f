package ghtransport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

// retryEpoch is where the fake clock starts: on a whole second, as x-ratelimit-reset is.
var retryEpoch = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// scriptedReply is one scripted answer of the fake GitHub.
type scriptedReply struct {
	status int
	header map[string]string
	body   string
	// hangUp closes the connection without an answer: a timeout or a reset, as the
	// client sees it.
	hangUp bool
}

// Replies in the shapes GitHub sends.

func replyCreated() scriptedReply {
	return scriptedReply{status: http.StatusCreated, header: rateHeaders(4990, time.Hour), body: `{"id":101,"body":"hello"}`}
}

func replyLabels() scriptedReply {
	return scriptedReply{status: http.StatusOK, header: rateHeaders(4990, time.Hour), body: `[{"name":"clarification:active"}]`}
}

func replyIssue() scriptedReply {
	return scriptedReply{status: http.StatusOK, header: rateHeaders(4990, time.Hour), body: `{"number":7,"title":"Flaky build"}`}
}

func replyServerError(status int) scriptedReply {
	return scriptedReply{status: status, body: `{"message":"Server Error"}`}
}

func replyUnavailable(retryAfter int) scriptedReply {
	r := replyServerError(http.StatusServiceUnavailable)
	r.header = map[string]string{"Retry-After": strconv.Itoa(retryAfter)}
	return r
}

// replySecondaryLimit is GitHub's 403 for going too fast; retryAfter < 0 leaves the header out.
func replySecondaryLimit(retryAfter int) scriptedReply {
	h := rateHeaders(4000, time.Hour)
	if retryAfter >= 0 {
		h["Retry-After"] = strconv.Itoa(retryAfter)
	}
	return scriptedReply{status: http.StatusForbidden, header: h, body: `{"message":"You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later. If you reach out to GitHub Support for help, please include the request ID 0400:2F1B:9C3D1:14E2A8:65E2F1C0.","documentation_url":"https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`}
}

// replyPrimaryLimit is GitHub's answer once the installation's hourly quota is spent.
func replyPrimaryLimit(status int, resetIn time.Duration) scriptedReply {
	return scriptedReply{status: status, header: rateHeaders(0, resetIn), body: `{"message":"API rate limit exceeded for installation ID 4711.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-rate-limits"}`}
}

func replyRefusal() scriptedReply {
	return scriptedReply{status: http.StatusForbidden, header: rateHeaders(4990, time.Hour), body: `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/issues/comments#create-an-issue-comment"}`}
}

func replyNotFound() scriptedReply {
	return scriptedReply{status: http.StatusNotFound, header: rateHeaders(4990, time.Hour), body: `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/issues/issues#get-an-issue"}`}
}

func rateHeaders(remaining int, resetIn time.Duration) map[string]string {
	return map[string]string{
		"X-RateLimit-Limit":     "5000",
		"X-RateLimit-Remaining": strconv.Itoa(remaining),
		"X-RateLimit-Used":      strconv.Itoa(5000 - remaining),
		"X-RateLimit-Reset":     strconv.FormatInt(retryEpoch.Add(resetIn).Unix(), 10),
		"X-RateLimit-Resource":  "core",
	}
}

// scriptedRequest is what the fake GitHub was sent.
type scriptedRequest struct{ method, path, body string }

// scriptedGitHub answers the requests to the API, whatever their path, with its script
// in order; it is mounted under a base path, and anything outside it fails the test.
type scriptedGitHub struct {
	t      *testing.T
	mu     sync.Mutex
	script []scriptedReply
	seen   []scriptedRequest
	// served, if set, hears of every answer given.
	served chan struct{}
}

func (g *scriptedGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g.mu.Lock()
	g.seen = append(g.seen, scriptedRequest{r.Method, r.URL.Path, string(body)})
	n := len(g.seen)
	g.mu.Unlock()
	if n > len(g.script) {
		g.t.Errorf("request %d (%s %s) is past the end of the script", n, r.Method, r.URL.Path)
		http.Error(w, "past the script", http.StatusTeapot)
		return
	}
	rep := g.script[n-1]
	if g.served != nil {
		defer func() { g.served <- struct{}{} }()
	}
	if rep.hangUp {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			g.t.Errorf("hijack: %v", err)
			return
		}
		_ = conn.Close()
		return
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(rep.status)
	_, _ = io.WriteString(w, rep.body)
}

func (g *scriptedGitHub) requests() []scriptedRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.seen)
}

// newScriptedGitHub starts the fake GitHub on loopback and returns a go-github client
// that reaches it through base, which a test wraps in the transport under test.
func newScriptedGitHub(t *testing.T, script []scriptedReply, mw func(http.RoundTripper) http.RoundTripper) (*scriptedGitHub, *github.Client) {
	t.Helper()
	g := &scriptedGitHub{t: t, script: script}
	mux := http.NewServeMux()
	mux.Handle("/api-v3/", http.StripPrefix("/api-v3", g))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request outside the API base path: %s %s", r.Method, r.URL)
		http.Error(w, "outside the API", http.StatusTeapot)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	// No keep-alives: net/http would itself resend a read whose reused connection was
	// cut, and the counts here are the transport's own.
	base := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(base.CloseIdleConnections)
	client := github.NewClient(&http.Client{Transport: mw(base)})
	u, err := url.Parse(srv.URL + "/api-v3/")
	if err != nil {
		t.Fatal(err)
	}
	client.BaseURL = u
	return g, client
}

// retryClock is a clock that only sleep moves; it records every wait.
type retryClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
	// during, if set, runs at the start of the first sleep, while that request waits.
	during func()
}

func newRetryClock() *retryClock { return &retryClock{now: retryEpoch} }

func (c *retryClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *retryClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	during := c.during
	c.during = nil
	c.mu.Unlock()
	if during != nil {
		during()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return nil
}

func (c *retryClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.waits)
}

// options wires the fake clock in and takes the jitter out.
func (c *retryClock) options() RetryOptions {
	return RetryOptions{Now: c.Now, Sleep: c.Sleep, Jitter: func(d time.Duration) time.Duration { return d }}
}

const retryCommentJSON = "{\"body\":\"hello\"}\n"

// callGitHub makes the request a handler would: a read of an issue or the post of a comment.
func callGitHub(ctx context.Context, client *github.Client, method string) error {
	switch method {
	case http.MethodGet:
		_, _, err := client.Issues.Get(ctx, "octo-org", "octo-repo", 7)
		return err
	case http.MethodPost:
		_, _, err := client.Issues.CreateComment(ctx, "octo-org", "octo-repo", 7, &github.IssueComment{Body: github.String("hello")})
		return err
	case http.MethodPatch:
		_, _, err := client.Issues.EditComment(ctx, "octo-org", "octo-repo", 9, &github.IssueComment{Body: github.String("hello")})
		return err
	case "POST labels":
		_, _, err := client.Issues.AddLabelsToIssue(ctx, "octo-org", "octo-repo", 7, []string{"clarification:active"})
		return err
	}
	panic("no call for " + method)
}

func TestRetryTransient(t *testing.T) {
	s := time.Second
	tests := map[string]struct {
		method string
		script []scriptedReply
		tune   func(*RetryOptions)
		// deadline, if set, is how far away the request's deadline is.
		deadline time.Duration
		sent     int
		waits    []time.Duration
		// status is the error's status code; 0 means success, -1 an error with no answer.
		status int
		// errAs, if set, checks the error's type.
		errAs func(error) bool
	}{
		"readSucceedsOnTheThirdAttemptAfterTwoBadGateways": {
			method: http.MethodGet, script: []scriptedReply{replyServerError(502), replyServerError(502), replyIssue()},
			sent: 3, waits: []time.Duration{1 * s, 2 * s},
		},
		"readRidesOutEachTransientServerError": {
			method: http.MethodGet, script: []scriptedReply{replyServerError(500), replyServerError(503), replyServerError(504), replyIssue()},
			sent: 4, waits: []time.Duration{1 * s, 2 * s, 4 * s},
		},
		"readHonoursRetryAfterOnServiceUnavailable": {
			method: http.MethodGet, script: []scriptedReply{replyUnavailable(5), replyIssue()},
			sent: 2, waits: []time.Duration{5 * s},
		},
		"readCutOffMidwayIsSentAgain": {
			method: http.MethodGet, script: []scriptedReply{{hangUp: true}, replyIssue()},
			sent: 2, waits: []time.Duration{1 * s},
		},
		"readAttemptsAreBounded": {
			method: http.MethodGet, script: []scriptedReply{replyServerError(502), replyServerError(502), replyServerError(502), replyServerError(502), replyIssue()},
			sent: 4, waits: []time.Duration{1 * s, 2 * s, 4 * s}, status: 502,
		},
		"backoffStopsGrowingAtMaxDelay": {
			method: http.MethodGet,
			script: []scriptedReply{replyServerError(502), replyServerError(502), replyServerError(502), replyServerError(502), replyServerError(502), replyIssue()},
			tune:   func(o *RetryOptions) { o.Attempts = 6; o.MaxDelay = 3 * s },
			sent:   6, waits: []time.Duration{1 * s, 2 * s, 3 * s, 3 * s, 3 * s},
		},
		"writeAnsweredBadGatewayIsNotSentAgain": {
			method: http.MethodPost, script: []scriptedReply{replyServerError(502), replyCreated()},
			sent: 1, status: 502,
		},
		"writeAnsweredGatewayTimeoutIsNotSentAgain": {
			method: http.MethodPost, script: []scriptedReply{replyServerError(504), replyCreated()},
			sent: 1, status: 504,
		},
		"writeCutOffMidwayIsNotSentAgain": {
			method: http.MethodPost, script: []scriptedReply{{hangUp: true}, replyCreated()},
			sent: 1, status: -1,
		},
		"editAnsweredBadGatewayIsSentAgainSinceTheSameEditTwiceIsOne": {
			method: http.MethodPatch, script: []scriptedReply{replyServerError(502), replyCreated()},
			sent: 2, waits: []time.Duration{1 * s},
		},
		"labelsCutOffMidwayAreSentAgainSinceGitHubKeepsALabelOnce": {
			method: "POST labels", script: []scriptedReply{{hangUp: true}, replyLabels()},
			sent: 2, waits: []time.Duration{1 * s},
		},
		"writeHeldBySecondaryLimitIsSentOnceMoreAfterExactlyItsRetryAfter": {
			method: http.MethodPost, script: []scriptedReply{replySecondaryLimit(7), replyCreated()},
			sent: 2, waits: []time.Duration{7 * s},
		},
		"secondaryLimitWithoutRetryAfterWaitsAMinute": {
			method: http.MethodPost, script: []scriptedReply{replySecondaryLimit(-1), replyCreated()},
			sent: 2, waits: []time.Duration{time.Minute},
		},
		"secondaryLimitWithoutRetryAfterTwiceIsHandedBackAfterOneMinute": {
			method: http.MethodPost, script: []scriptedReply{replySecondaryLimit(-1), replySecondaryLimit(-1), replyCreated()},
			sent: 2, waits: []time.Duration{time.Minute}, status: 403,
		},
		"tooManyRequestsWaitsUntilTheRateLimitResets": {
			method: http.MethodPost, script: []scriptedReply{replyPrimaryLimit(http.StatusTooManyRequests, 30*s), replyCreated()},
			sent: 2, waits: []time.Duration{30 * s},
		},
		"spentQuotaWaitsUntilTheRateLimitResets": {
			method: http.MethodGet, script: []scriptedReply{replyPrimaryLimit(http.StatusForbidden, 20*s), replyIssue()},
			sent: 2, waits: []time.Duration{20 * s},
		},
		"primaryLimitResettingInAnHourIsNotWaitedFor": {
			method: http.MethodGet, script: []scriptedReply{replyPrimaryLimit(http.StatusForbidden, time.Hour), replyIssue()},
			sent: 1, status: 403,
			errAs: func(err error) bool { var rl *github.RateLimitError; return errors.As(err, &rl) },
		},
		"waitsTogetherPastMaxTotalWaitAreNotBegun": {
			method: http.MethodGet, script: []scriptedReply{replySecondaryLimit(50), replySecondaryLimit(50), replyIssue()},
			sent: 2, waits: []time.Duration{50 * s}, status: 403,
			errAs: func(err error) bool { var al *github.AbuseRateLimitError; return errors.As(err, &al) },
		},
		"waitPastTheRequestDeadlineIsNotBegun": {
			method: http.MethodPost, script: []scriptedReply{replySecondaryLimit(30), replyCreated()},
			deadline: 10 * s, sent: 1, status: 403,
		},
		"refusalIsNotARateLimit": {
			method: http.MethodPost, script: []scriptedReply{replyRefusal(), replyCreated()},
			sent: 1, status: 403,
		},
		"notFoundIsNotRetried": {
			method: http.MethodGet, script: []scriptedReply{replyNotFound(), replyIssue()},
			sent: 1, status: 404,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			clock := newRetryClock()
			opts := clock.options()
			if tc.tune != nil {
				tc.tune(&opts)
			}
			gh, client := newScriptedGitHub(t, tc.script, RetryTransient(opts))
			ctx := context.Background()
			if tc.deadline > 0 {
				// A deadline is on the real clock, so the fake one starts from it here.
				clock.now = time.Now()
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, clock.now.Add(tc.deadline))
				defer cancel()
			}

			err := callGitHub(ctx, client, tc.method)

			switch got := errStatusOf(err); {
			case tc.status == 0 && err != nil:
				t.Fatalf("want success, got %v", err)
			case tc.status != 0 && got != tc.status:
				t.Fatalf("want an error with status %d, got status %d: %v", tc.status, got, err)
			}
			if tc.errAs != nil && !tc.errAs(err) {
				t.Errorf("error of the wrong type: %T %v", err, err)
			}
			seen := gh.requests()
			if len(seen) != tc.sent {
				t.Errorf("GitHub was sent %d requests, want %d: %v", len(seen), tc.sent, seen)
			}
			if got := clock.recorded(); !slices.Equal(got, tc.waits) {
				t.Errorf("waits %v, want %v", got, tc.waits)
			}
			for i, r := range seen {
				if tc.method == http.MethodPost && r.body != retryCommentJSON {
					t.Errorf("attempt %d sent body %q, want %q", i+1, r.body, retryCommentJSON)
				}
			}
		})
	}
}

// errStatusOf is the HTTP status behind a go-github error, -1 for an error GitHub did not
// answer, 0 for none.
func errStatusOf(err error) int {
	var er *github.ErrorResponse
	var rl *github.RateLimitError
	var al *github.AbuseRateLimitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &er) && er.Response != nil:
		return er.Response.StatusCode
	case errors.As(err, &rl) && rl.Response != nil:
		return rl.Response.StatusCode
	case errors.As(err, &al) && al.Response != nil:
		return al.Response.StatusCode
	}
	return -1
}

func TestRetryTransientStopsWaitingWhenTheContextEnds(t *testing.T) {
	// The real sleep: GitHub asks for 50 s, the caller gives up as soon as it was answered.
	gh, client := newScriptedGitHub(t, []scriptedReply{replyUnavailable(50), replyIssue()}, RetryTransient(RetryOptions{}))
	gh.served = make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-gh.served
		cancel()
	}()

	start := time.Now()
	err := callGitHub(ctx, client, http.MethodGet)

	if !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the wait went on for %v after the context ended", took)
	}
	if n := len(gh.requests()); n != 1 {
		t.Errorf("GitHub was sent %d requests, want 1", n)
	}
}

func TestRetryTransientSendsAWriteItCannotRewindOnlyOnce(t *testing.T) {
	clock := newRetryClock()
	gh, client := newScriptedGitHub(t, []scriptedReply{replySecondaryLimit(7), replyCreated()}, RetryTransient(clock.options()))
	// A reader net/http does not know gets no GetBody: its bytes are gone once sent.
	body := struct{ io.Reader }{strings.NewReader(retryCommentJSON)}
	req, err := http.NewRequest(http.MethodPost, client.BaseURL.String()+"repos/octo-org/octo-repo/issues/7/comments", body)
	if err != nil {
		t.Fatal(err)
	}

	resp, err := client.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()

	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want GitHub's 403 handed back", resp.StatusCode)
	}
	if n := len(gh.requests()); n != 1 {
		t.Errorf("GitHub was sent %d requests, want 1", n)
	}
	if w := clock.recorded(); len(w) != 0 {
		t.Errorf("waited %v for a request it would not send again", w)
	}
}

func TestRetryAfterReadsSecondsAndDates(t *testing.T) {
	tests := map[string]struct {
		header string
		want   time.Duration
		ok     bool
	}{
		"secondsAreTakenAsTheyAre": {header: "7", want: 7 * time.Second, ok: true},
		"zeroMeansAtOnce":          {header: "0", want: 0, ok: true},
		"aDateIsCountedFromNow":    {header: retryEpoch.Add(30 * time.Second).Format(http.TimeFormat), want: 30 * time.Second, ok: true},
		"aDatePassedMeansAtOnce":   {header: retryEpoch.Add(-time.Minute).Format(http.TimeFormat), want: 0, ok: true},
		"absentIsNoHint":           {header: "", ok: false},
		"negativeIsNoHint":         {header: "-3", ok: false},
		"gibberishIsNoHint":        {header: "soon", ok: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := http.Header{}
			if tc.header != "" {
				h.Set("Retry-After", tc.header)
			}
			got, ok := retryAfter(h, retryEpoch)
			if got != tc.want || ok != tc.ok {
				t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tc.header, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestEqualJitterKeepsAtLeastHalfTheDelay(t *testing.T) {
	for _, d := range []time.Duration{0, 1, 2, time.Second, 8 * time.Second} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			for range 200 {
				got := equalJitter(d)
				if got < d/2 || got > d || (d > 1 && got == d) {
					t.Fatalf("equalJitter(%v) = %v, want within [%v, %v)", d, got, d/2, d)
				}
			}
		})
	}
}
