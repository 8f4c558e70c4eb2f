package asker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// Options say how a Client reaches GitHub and whom it believes.
type Options struct {
	// API is GitHub's REST API URL (GITHUB_API_URL); Token the caller's token.
	API, Token string
	// Slug is the app's slug (--app): only comments by "<slug>[bot]" hold its records.
	// Empty, each repository's config says (readerOf): the workflow where it lists
	// verify_keys, else the App DefaultSlug.
	Slug string
	// DefaultSlug is the App's slug where nothing names one (app.DefaultAppSlug).
	DefaultSlug string
	// Transport is the HTTP transport under the client (nil: Go's default); tests count
	// requests through it.
	Transport http.RoundTripper
	// Now and Sleep are the clock (nil: the real one), injectable so that a wait of an
	// hour runs in a test in no time.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Notes takes what happens on the way that is no result (an escalation during a
	// wait); nil: nowhere.
	Notes io.Writer
	// Poll is the interval between reads while waiting (zero: DefaultPoll).
	Poll Backoff
}

// Backoff is the interval between two reads of a wait: First, then doubled after each read
// that found nothing new, up to Max; back to First when something changed.
type Backoff struct{ First, Max time.Duration }

// DefaultPoll is a wait's interval: a person answers in minutes, and every read after
// the first costs a 304 that the rate limit does not count.
var DefaultPoll = Backoff{First: 2 * time.Second, Max: time.Minute}

// askPoll is the interval while an ask waits for the app to take it: a run takes seconds.
var askPoll = Backoff{First: time.Second, Max: 5 * time.Second}

// Client is the asker's client for one token and one app.
type Client struct {
	gh                *github.Client
	slug, defaultSlug string
	// readers are the readers of each repository's records (readerOf), by "owner/repo".
	mu      sync.Mutex
	readers map[string]ledger.Reader
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error
	notes   io.Writer
	poll    Backoff
	web     string // the web address the records' links point to (webOf the API)
	// token keys the nonces of the client's dispatches (nonceOf).
	token []byte
	// statuses keeps each issue's status comment between reads (read.go).
	statuses sync.Map
	// configs keeps each repository's config once read (repoConfig), by "owner/repo".
	configs sync.Map
	// search keeps search's rate limit as GitHub last told it (inbox_search.go).
	search searchPace
}

// New returns a client; a slug written with "[bot]" is refused (CheckSlug).
func New(o Options) (*Client, error) {
	if err := CheckSlug(o.Slug); err != nil {
		return nil, err
	}
	if o.Slug == "" && o.DefaultSlug == "" {
		return nil, errors.New("asker: neither the app's slug nor a default is given")
	}
	gh, err := ghtransport.ConditionalTokenClient(o.API, o.Token, o.Transport)
	if err != nil {
		return nil, err
	}
	c := &Client{gh: gh, slug: o.Slug, defaultSlug: cmp.Or(o.DefaultSlug, o.Slug), web: webOf(o.API), now: o.Now, sleep: o.Sleep,
		notes: o.Notes, poll: o.Poll, token: []byte(o.Token), readers: map[string]ledger.Reader{}}
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = ghtransport.Sleep
	}
	if c.notes == nil {
		c.notes = io.Discard
	}
	if c.poll.First <= 0 {
		c.poll = DefaultPoll
	}
	return c, nil
}

// next is the interval after d: doubled, at most b.Max.
func (b Backoff) next(d time.Duration) time.Duration { return min(2*d, max(b.Max, b.First)) }

// pause sleeps d, cut short to what is left before deadline; false when the deadline has
// passed.
func (c *Client) pause(ctx context.Context, d time.Duration, deadline time.Time) (bool, error) {
	left := deadline.Sub(c.now())
	if left <= 0 {
		return false, nil
	}
	return true, c.sleep(ctx, min(d, left))
}

// Error is a refusal or a failure with Clarify's error code, for a door to show as it shows
// errors (an exit code and the code on stderr, an MCP tool error).
type Error struct {
	Code clarify.ErrorCode
	Msg  string
}

// Error returns the code and what it means.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Msg) }
