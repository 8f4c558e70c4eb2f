package fakegithub

import (
	"bytes"
	"context"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configures a Server.
type Options struct {
	// AppID is the GitHub App's id: the App JWT's issuer and the hook target id (default 1).
	AppID int64
	// AppSlug names the app; its bot user is AppSlug+"[bot]" (default "clarify").
	AppSlug string
	// WebhookSecret signs the deliveries the Server sends itself (Server.Deliver).
	WebhookSecret []byte
	// AppPublicKey verifies the App JWT's RS256 signature; nil accepts any well-formed JWT.
	AppPublicKey *rsa.PublicKey
	// Now is the clock behind every timestamp; nil means a virtual clock
	// starting at DefaultStart that only Advance moves.
	Now func() time.Time
}

// DefaultStart is where the virtual clock starts when Options.Now is nil.
var DefaultStart = time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC)

// BotUserID is the numeric user id of the app's bot user.
const BotUserID int64 = 190_000_001

// HookID is the webhook id the Server puts on its deliveries.
const HookID int64 = 470_000_001

// DocsURL is the documentation_url of errors on routes without a page of their own.
const DocsURL = "https://docs.github.com/rest"

// FirstCommentID is the id of the first comment created on a Server; ids grow
// by one from there across the whole Server, as GitHub's do.
const FirstCommentID int64 = 1_000_001

// rateLimit is the primary rate limit GitHub gives an installation per hour.
const rateLimit = 5000

// Server is an in-memory GitHub: an http.Handler serving the REST subset
// Clarify uses at its root, plus methods that script users' actions into
// webhook deliveries and read the state back.
type Server struct {
	opts Options

	mu            sync.Mutex
	virtualNow    time.Time
	offset        time.Duration // added to Options.Now by Advance
	users         map[string]*user
	installations map[int64]*installation
	repos         map[string]*repository
	teams         map[string]map[string]bool // "org/slug" -> logins
	comments      map[int64]*comment
	tokens        map[string]*token
	routes        []*route

	nextCommentID  int64
	nextReactionID int64
	tokenSeq       int
	deliverySeq    int
	requestSeq     int

	requests []Request
	faults   map[string][]*fault
	chaos    *chaosState

	content     ContentWindow
	transitRand *rand.Rand
	latency     time.Duration
	before      []beforeHook // BeforeNext, AfterNext
	outbox      []Delivery
	rate        map[int64]*rateWindow

	hookLog   []*hookAttempt
	hookSeq   int64
	redeliver []Delivery

	// pulls holds what pull requests have beyond their issue, and their check runs.
	pulls pullState
	// dispatches holds the repository_dispatch events created through the API.
	dispatches []SentDispatch
	// search holds what the issue search remembers (search.go).
	search searchState
	// relations holds the issue dependencies and sub-issues (relations.go).
	relations relationState
}

// New returns an empty Server with its app's bot user registered.
func New(opts Options) *Server {
	if opts.AppID == 0 {
		opts.AppID = 1
	}
	if opts.AppSlug == "" {
		opts.AppSlug = "clarify"
	}
	s := &Server{
		opts:           opts,
		virtualNow:     DefaultStart,
		users:          map[string]*user{},
		installations:  map[int64]*installation{},
		repos:          map[string]*repository{},
		teams:          map[string]map[string]bool{},
		comments:       map[int64]*comment{},
		tokens:         map[string]*token{},
		faults:         map[string][]*fault{},
		rate:           map[int64]*rateWindow{},
		nextCommentID:  FirstCommentID,
		nextReactionID: 200_000_001,
	}
	s.users[key(s.BotLogin())] = &user{login: s.BotLogin(), id: BotUserID, typ: "Bot"}
	s.routes = s.routeTable()
	return s
}

// BotLogin is the login of the app's bot user, AppSlug+"[bot]".
func (s *Server) BotLogin() string { return s.opts.AppSlug + "[bot]" }

// Now is the Server's clock.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nowLocked()
}

func (s *Server) nowLocked() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now().Add(s.offset).UTC()
	}
	return s.virtualNow
}

// Advance moves the clock forward by d (on top of Options.Now when one is set).
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Now != nil {
		s.offset += d
		return
	}
	s.virtualNow = s.virtualNow.Add(d)
}

// --- request log ---

// Request is one logged API request.
type Request struct {
	Method string
	Path   string
	Query  string // raw query string
	// Route is the matched route template, e.g.
	// "GET /repos/{owner}/{repo}/issues/{issue_number}/comments"; empty when unhandled.
	Route        string
	Status       int
	Installation int64 // the installation whose token was used (or whose token was requested); 0 for none
	Unhandled    bool  // no route matched: the app called something the fake does not model
	At           time.Time
}

// Requests returns the request log, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ResetRequests empties the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// Unhandled returns the logged requests that matched no route.
func (s *Server) Unhandled() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Unhandled {
			out = append(out, r)
		}
	}
	return out
}

// CountRequests counts the logged requests that matched the route template.
func (s *Server) CountRequests(route string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Route == route {
			n++
		}
	}
	return n
}

// Tally is the request log counted: by route, and by kind.
type Tally struct {
	// Routes counts the requests by route template; an unhandled one by
	// "UNHANDLED METHOD PATH".
	Routes map[string]int
	Total  int
	// Reads are GETs, NotModified the 304s among them; Writes the other
	// methods, token exchanges excluded.
	Reads, NotModified, Writes int
	TokenExchanges, Unhandled  int
}

// Tally counts the logged requests.
func (s *Server) Tally() Tally {
	reqs := s.Requests()
	t := Tally{Routes: map[string]int{}, Total: len(reqs)}
	for _, r := range reqs {
		name := r.Route
		if r.Unhandled {
			name = "UNHANDLED " + r.Method + " " + r.Path
			t.Unhandled++
		}
		t.Routes[name]++
		switch {
		case r.Route == routeAccessToken:
			t.TokenExchanges++
		case r.Method == http.MethodGet:
			t.Reads++
		default:
			t.Writes++
		}
		if r.Status == http.StatusNotModified {
			t.NotModified++
		}
	}
	return t
}

// Summary counts the logged requests by route, sorted, then totals: reads
// (GET, with the 304s among them), writes (other methods, token exchanges
// excluded), token exchanges and unhandled requests.
func (s *Server) Summary() string {
	t := s.Tally()
	names := make([]string, 0, len(t.Routes))
	for n := range t.Routes {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%4d  %s\n", t.Routes[n], n)
	}
	fmt.Fprintf(&b, "total %d: reads %d (304s %d), writes %d, token exchanges %d, unhandled %d\n",
		t.Total, t.Reads, t.NotModified, t.Writes, t.TokenExchanges, t.Unhandled)
	return b.String()
}

// --- faults and latency ---

type fault struct {
	status  int
	left    int
	applied bool // handle the request, then answer with the fault
	// secondary answers as a secondary limit, asking for retryAfter seconds.
	secondary  bool
	retryAfter int
	// denied answers as GitHub does to a token without the permission the route needs.
	denied bool
}

// Routes lists the route templates the Server serves, as Request.Route and FailNext spell them.
func (s *Server) Routes() []string {
	out := make([]string, 0, len(s.routes))
	for _, r := range s.routes {
		out = append(out, r.template)
	}
	return out
}

// FailNext makes the next n requests matching the route template fail with
// status and a GitHub-shaped error body (403 and 429 as rate limiting), without
// touching any state. It panics on a route the Server does not serve.
func (s *Server) FailNext(route string, status int, n int) {
	s.addFault(route, &fault{status: status, left: n})
}

// DenyNext makes the next n requests matching the route template answer 403 "Resource
// not accessible by integration", as GitHub answers a token that lacks the permission the
// route needs (no rate-limit headers), without touching any state.
func (s *Server) DenyNext(route string, n int) {
	s.addFault(route, &fault{status: http.StatusForbidden, left: n, denied: true})
}

// FailNextAfterApply is FailNext for the other half of a flaky network: the
// next n matching requests take effect (state, outbox) but the client is told
// status, as when a write succeeds and its response is lost.
func (s *Server) FailNextAfterApply(route string, status int, n int) {
	s.addFault(route, &fault{status: status, left: n, applied: true})
}

// PassNext lets the next n requests matching the route through untouched, so that faults
// queued after it (FailNext) hit the requests after them: "the second post fails".
func (s *Server) PassNext(route string, n int) {
	s.addFault(route, &fault{left: n})
}

func (s *Server) addFault(route string, f *fault) {
	known := false
	for _, r := range s.routes {
		known = known || r.template == route
	}
	if !known {
		panic(fmt.Sprintf("fakegithub: FailNext: no route %q; routes are:\n  %s", route, strings.Join(s.Routes(), "\n  ")))
	}
	if f.left <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[route] = append(s.faults[route], f)
}

func (s *Server) takeFaultLocked(route string) *fault {
	queue := s.faults[route]
	if len(queue) == 0 {
		return nil
	}
	f := queue[0]
	f.left--
	if f.left <= 0 {
		s.faults[route] = queue[1:]
	}
	return f
}

// SetLatency delays every request by d of real time before it is handled.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// --- outbox ---

// TakeOutbox returns and clears the deliveries GitHub would send for the
// app's own writes (issue_comment created, edited, deleted), oldest first.
func (s *Server) TakeOutbox() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.outbox
	s.outbox = nil
	return out
}

// --- serving ---

// reply is what a handler answers; ServeHTTP turns it into a response.
type reply struct {
	status int
	body   any // JSON-encoded unless nil
	header http.Header
}

type rateWindow struct {
	reset time.Time
	used  int
}

// ServeHTTP serves the REST subset, logging every request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	latency := s.latency
	s.mu.Unlock()
	latency += s.transit(r)
	if latency > 0 {
		t := time.NewTimer(latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}
	// The routes never change once built, so matching needs no lock.
	rt, params := s.match(r.Method, r.URL.EscapedPath())
	if fn := s.takeBefore(rt, false); fn != nil {
		fn()
	}
	if fn := s.takeBefore(rt, true); fn != nil {
		defer fn() // after the lock below is let go
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err != nil {
		http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
		return
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, At: s.nowLocked()}
	var rep reply
	if rt == nil {
		rec.Unhandled = true
		rep = errorReply(http.StatusNotFound, "Not Found", DocsURL)
	} else {
		rec.Route = rt.template
		c := &call{s: s, r: r, route: rt, params: params, body: body}
		authErr := s.authenticateLocked(c)
		rec.Installation = c.installation
		f := s.faultForLocked(c, authErr == nil)
		switch {
		case f != nil && !f.applied:
			rep = s.faultReplyLocked(f, c)
		case authErr != nil:
			rep = *authErr
		default:
			rep = rt.handle(c)
			if f != nil {
				rep = s.faultReplyLocked(f, c)
			}
		}
	}
	rec.Status = s.writeLocked(w, r, rec.Installation, rep)
	s.requests = append(s.requests, rec)
}

// faultForLocked takes the fault the call meets, if any: the one queued for its route,
// else a chaos fault, else (only for an authenticated call) a content fault.
func (s *Server) faultForLocked(c *call, authenticated bool) *fault {
	f := s.takeFaultLocked(c.route.template)
	if f != nil && f.status == 0 {
		f = nil // PassNext: served as it comes, ahead of the faults queued behind it
	}
	if f == nil {
		f = s.chaosFaultLocked()
	}
	if f == nil && authenticated {
		f = s.contentFaultLocked(c.r, c.installation)
	}
	return f
}

// writeLocked writes the reply with GitHub's headers, answering 304 when the
// client already holds the representation. It returns the status sent.
func (s *Server) writeLocked(w http.ResponseWriter, r *http.Request, inst int64, rep reply) int {
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	s.requestSeq++
	n := s.requestSeq
	h.Set("X-GitHub-Request-Id", fmt.Sprintf("FA4E:%04X:%06X:%06X:%08X", n%0x10000, n*7919%0x1000000, n*104729%0x1000000, n))
	h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	h.Set("X-GitHub-Api-Version-Selected", "2022-11-28")
	// On the fake's clock, as an issue's updated_at is: GitHub's Date and its timestamps
	// come from one clock.
	h.Set("Date", s.nowLocked().UTC().Format(http.TimeFormat))

	var payload []byte
	if rep.body != nil {
		payload = encodeJSON(rep.body)
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	notModified := false
	if r.Method == http.MethodGet && rep.status == http.StatusOK {
		sum := sha256.Sum256(payload)
		etag := `W/"` + hex.EncodeToString(sum[:16]) + `"`
		h.Set("ETag", etag)
		h.Set("Cache-Control", "private, max-age=60, s-maxage=60")
		h.Set("Vary", "Accept, Authorization, Cookie, X-GitHub-OTP")
		notModified = etagMatches(r.Header.Get("If-None-Match"), etag)
	}
	if h.Get("X-RateLimit-Limit") == "" {
		s.rateHeadersLocked(h, inst, !notModified)
	}
	if notModified {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return http.StatusNotModified
	}
	if payload != nil {
		h.Set("Content-Length", strconv.Itoa(len(payload)))
	}
	w.WriteHeader(rep.status)
	w.Write(payload)
	return rep.status
}

// rateHeadersLocked sets the X-RateLimit headers; a 304 costs nothing, as on GitHub.
func (s *Server) rateHeadersLocked(h http.Header, inst int64, count bool) {
	now := s.nowLocked()
	win := s.rate[inst]
	if win == nil || !now.Before(win.reset) {
		win = &rateWindow{reset: now.Add(time.Hour).Truncate(time.Second)}
		s.rate[inst] = win
	}
	if count {
		win.used++
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(rateLimit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(rateLimit-win.used, 0)))
	h.Set("X-RateLimit-Used", strconv.Itoa(win.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(win.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", "core")
}

func etagMatches(ifNoneMatch, etag string) bool {
	if ifNoneMatch == "" {
		return false
	}
	weak := func(t string) string { return strings.TrimPrefix(strings.TrimSpace(t), "W/") }
	for _, cand := range strings.Split(ifNoneMatch, ",") {
		if strings.TrimSpace(cand) == "*" || weak(cand) == weak(etag) {
			return true
		}
	}
	return false
}

// faultReplyLocked is the error GitHub would send with that status.
func (s *Server) faultReplyLocked(f *fault, c *call) reply {
	status := f.status
	if f.secondary {
		return secondaryLimitReply(status, f.retryAfter)
	}
	if f.denied {
		return errorReply(status, "Resource not accessible by integration", c.route.docs)
	}
	switch status {
	case http.StatusForbidden, http.StatusTooManyRequests:
		msg := "API rate limit exceeded for installation ID " + strconv.FormatInt(c.installation, 10) + "."
		rep := errorReply(status, msg, "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api")
		now := s.nowLocked()
		reset := now.Add(time.Hour).Truncate(time.Second)
		if win := s.rate[c.installation]; win != nil && win.reset.After(now) {
			reset = win.reset
		}
		rep.header = http.Header{}
		rep.header.Set("X-RateLimit-Limit", strconv.Itoa(rateLimit))
		rep.header.Set("X-RateLimit-Remaining", "0")
		rep.header.Set("X-RateLimit-Used", strconv.Itoa(rateLimit))
		rep.header.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		rep.header.Set("X-RateLimit-Resource", "core")
		return rep
	case http.StatusInternalServerError:
		return errorReply(status, "Server Error", c.route.docs)
	default:
		return errorReply(status, http.StatusText(status), c.route.docs)
	}
}

// --- JSON and errors ---

// apiError is the body of every GitHub error response.
type apiError struct {
	Message          string       `json:"message"`
	Errors           []fieldError `json:"errors,omitempty"`
	DocumentationURL string       `json:"documentation_url"`
	Status           string       `json:"status"`
}

type fieldError struct {
	Resource string `json:"resource"`
	Code     string `json:"code"`
	Field    string `json:"field"`
	Message  string `json:"message,omitempty"`
}

func errorReply(status int, message, docs string) reply {
	return reply{status: status, body: apiError{Message: message, DocumentationURL: docs, Status: strconv.Itoa(status)}}
}

func validationFailed(docs string, errs ...fieldError) reply {
	return reply{status: http.StatusUnprocessableEntity, body: apiError{
		Message: "Validation Failed", Errors: errs, DocumentationURL: docs, Status: "422",
	}}
}

// encodeJSON encodes like GitHub: compact, no HTML escaping, no trailing newline.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fakegithub: encoding %T: %v", v, err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// --- pagination ---

// pageReply answers 200 with the requested page of list, each item as toJSON
// renders it, and GitHub's Link header (paginate).
func pageReply[E, J any](c *call, list []E, toJSON func(E) J) reply {
	out := reply{status: http.StatusOK}
	start, end := paginate(c, len(list), &out)
	body := make([]J, 0, end-start)
	for _, e := range list[start:end] {
		body = append(body, toJSON(e))
	}
	out.body = body
	return out
}

// paginate returns the requested page of n items as [start, end) and sets
// GitHub's Link header (rel prev, next, last, first, in GitHub's order).
func paginate(c *call, n int, rep *reply) (start, end int) {
	q := c.r.URL.Query()
	perPage, err := strconv.Atoi(q.Get("per_page"))
	if err != nil || perPage <= 0 {
		perPage = 30
	}
	perPage = min(perPage, 100)
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	last := (n + perPage - 1) / perPage
	start = min((page-1)*perPage, n)
	end = min(start+perPage, n)
	if last > 1 {
		link := func(p int, rel string) string {
			q.Set("page", strconv.Itoa(p))
			u := url.URL{Scheme: "http", Host: c.r.Host, Path: c.r.URL.Path, RawQuery: q.Encode()}
			if c.r.TLS != nil {
				u.Scheme = "https"
			}
			return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
		}
		var links []string
		if page > 1 {
			links = append(links, link(min(page-1, last), "prev"))
		}
		if page < last {
			links = append(links, link(page+1, "next"), link(last, "last"))
		}
		if page > 1 {
			links = append(links, link(1, "first"))
		}
		if rep.header == nil {
			rep.header = http.Header{}
		}
		rep.header.Set("Link", strings.Join(links, ", "))
	}
	return start, end
}

// Deliver signs d with Options.WebhookSecret and POSTs it to url (see Send).
func (s *Server) Deliver(ctx context.Context, c *http.Client, url string, d Delivery) (int, error) {
	return Send(ctx, c, url, s.opts.WebhookSecret, d)
}
