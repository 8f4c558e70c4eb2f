package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// GitHub's issue search, as the REST API serves it: GET /search/issues with the subset of
// the query syntax Clarify uses (label:, repo:, org:, user:, is:, state:, type:, created:),
// sort and order, per_page up to 100, the Link header, at most 1,000 results (a page past
// them is a 422), incomplete_results, and search's own rate limit: 30 requests a minute for
// an authenticated caller, with x-ratelimit-resource: search, and 403 past it. A term the
// fake does not know is a 422 that names it, so a test never passes on a filter ignored.
// https://docs.github.com/en/rest/search/search#search-issues-and-pull-requests
// https://docs.github.com/en/rest/search/search#rate-limit
const (
	docsSearch = "https://docs.github.com/rest/search/search#search-issues-and-pull-requests"
	// SearchPerMinute is search's rate limit for an authenticated caller.
	SearchPerMinute = 30
	// SearchMaxResults is how many results one search gives at most.
	SearchMaxResults = 1000
	// RouteSearchIssues is the issue search.
	RouteSearchIssues = "GET /search/issues"
	// RouteUser is the authenticated user.
	RouteUser = "GET /user"
)

// searchState is what the search remembers: each caller's minute, the limit, and searches
// to answer incomplete.
type searchState struct {
	windows    map[string]*rateWindow
	limit      int
	incomplete int
}

// SetSearchLimit sets search's requests a minute (0: SearchPerMinute, as GitHub's).
func (s *Server) SetSearchLimit(perMinute int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.search.limit = perMinute
}

// IncompleteSearches makes the next n searches time out as GitHub's can: each answers
// incomplete_results true with the second half of its page left out.
func (s *Server) IncompleteSearches(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.search.incomplete = n
}

// PersonalTokenOf mints a personal access token of login's that reaches every repository of
// the installation's account (a maintainer's classic token, which reads the teams it may
// see too); what it writes is login's. It panics if the installation does not exist.
func (s *Server) PersonalTokenOf(login string, installation int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.installations[installation] == nil {
		panic(fmt.Sprintf("fakegithub: PersonalTokenOf: no installation %d", installation))
	}
	u := s.userLocked(login)
	s.tokenSeq++
	tok := fmt.Sprintf("ghp_fake%06d_%s", s.tokenSeq, strings.ToLower(u.login))
	s.tokens[tok] = &token{installation: installation, expires: time.Now().Add(24 * time.Hour), actor: u.login}
	return tok
}

// searchRoutes are the search and the authenticated user.
func (s *Server) searchRoutes() []routeSpec {
	return []routeSpec{
		{RouteSearchIssues, authInstallation, docsSearch, s.searchIssues},
		{RouteUser, authInstallation, "https://docs.github.com/rest/users/users#get-the-authenticated-user", s.getAuthenticatedUser},
	}
}

// getAuthenticatedUser: GET /user. A person's token is that person; an installation's token
// (an App's, a workflow's) is no user, and GitHub refuses it.
func (s *Server) getAuthenticatedUser(c *call) reply {
	if c.actor == "" || c.actor == ActionsBotLogin {
		return errorReply(http.StatusForbidden, "Resource not accessible by integration", c.route.docs)
	}
	return reply{status: http.StatusOK, body: s.userJSONLocked(c.actor)}
}

// searchIssues: GET /search/issues.
func (s *Server) searchIssues(c *call) reply {
	header, over := s.searchRateLocked(c)
	if over {
		rep := errorReply(http.StatusForbidden, "API rate limit exceeded for "+c.callerName()+". (But here's the good news: "+
			"Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
			"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting")
		rep.header = header
		return rep
	}
	q := c.r.URL.Query()
	f, bad := parseSearch(q.Get("q"))
	if bad != "" {
		rep := validationFailed(c.route.docs, fieldError{Resource: "Search", Code: "invalid", Field: "q", Message: bad})
		rep.header = header
		return rep
	}
	if bad := s.unsearchableLocked(c, f); bad != "" {
		rep := validationFailed(c.route.docs, fieldError{Resource: "Search", Code: "invalid", Field: "q", Message: bad})
		rep.header = header
		return rep
	}
	found := s.matchSearchLocked(c, f)
	sortSearch(found, q.Get("sort"), q.Get("order"))
	rep := s.searchPage(c, found)
	for k, v := range header {
		if rep.header == nil {
			rep.header = http.Header{}
		}
		rep.header[k] = v
	}
	return rep
}

// callerName is how GitHub's rate-limit message names the caller.
func (c *call) callerName() string {
	if c.actor != "" {
		return "user ID " + strconv.FormatInt(c.s.userLocked(c.actor).id, 10)
	}
	return "installation ID " + strconv.FormatInt(c.installation, 10)
}

// searchRateLocked counts the call in its caller's minute and returns search's rate-limit
// headers, and whether the call is over the limit. Every search counts, a 304 too: GitHub
// documents no exception for search.
func (s *Server) searchRateLocked(c *call) (http.Header, bool) {
	if s.search.windows == nil {
		s.search.windows = map[string]*rateWindow{}
	}
	limit := cmpOr(s.search.limit, SearchPerMinute)
	who := c.actor + "\x00" + strconv.FormatInt(c.installation, 10)
	now := s.nowLocked()
	win := s.search.windows[who]
	if win == nil || !now.Before(win.reset) {
		win = &rateWindow{reset: now.Add(time.Minute).Truncate(time.Second)}
		s.search.windows[who] = win
	}
	over := win.used >= limit
	if !over {
		win.used++
	}
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(limit-win.used, 0)))
	h.Set("X-RateLimit-Used", strconv.Itoa(win.used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(win.reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", "search")
	return h, over
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// searchItemJSON is one result: the issue, with its score.
type searchItemJSON struct {
	issueJSON
	Score float64 `json:"score"`
}

// searchResultJSON is a search's answer.
type searchResultJSON struct {
	TotalCount        int              `json:"total_count"`
	IncompleteResults bool             `json:"incomplete_results"`
	Items             []searchItemJSON `json:"items"`
}

type found struct {
	r  *repository
	is *issue
}

// searchPage is the requested page of the results: at most SearchMaxResults of them are
// given, and a page past those is GitHub's 422.
func (s *Server) searchPage(c *call, list []found) reply {
	q := c.r.URL.Query()
	perPage, _ := strconv.Atoi(q.Get("per_page"))
	if perPage <= 0 {
		perPage = 30
	}
	page, _ := strconv.Atoi(q.Get("page"))
	if page > 1 && (page-1)*min(perPage, 100) >= SearchMaxResults {
		return errorReply(http.StatusUnprocessableEntity, "Only the first 1000 search results are available", c.route.docs)
	}
	rep := reply{status: http.StatusOK}
	start, end := paginate(c, min(len(list), SearchMaxResults), &rep)
	out := searchResultJSON{TotalCount: len(list), Items: []searchItemJSON{}}
	items := list[start:end]
	if s.search.incomplete > 0 {
		s.search.incomplete--
		out.IncompleteResults = true
		items = items[:len(items)/2]
	}
	for _, f := range items {
		out.Items = append(out.Items, searchItemJSON{issueJSON: s.issueJSONLocked(f.r, f.is), Score: 1})
	}
	rep.body = out
	return rep
}

// unsearchableLocked is GitHub's refusal of a query naming a repository the caller cannot
// read, or an account that does not exist; "" when there is none.
func (s *Server) unsearchableLocked(c *call, f searchFilter) string {
	const msg = "The listed users and repositories cannot be searched either because the resources do not exist " +
		"or you do not have permission to view them."
	for _, full := range f.repos {
		r := s.repoLocked(full)
		if r == nil || r.installation != c.installation || (c.repoScope != "" && c.repoScope != key(r.fullName())) {
			return msg
		}
	}
	for _, acct := range append(append([]string(nil), f.orgs...), f.users...) {
		if _, ok := s.users[key(acct)]; !ok {
			return msg
		}
	}
	return ""
}

// matchSearchLocked lists the issues the caller may read that f matches.
func (s *Server) matchSearchLocked(c *call, f searchFilter) []found {
	var out []found
	for _, r := range s.repos {
		if r.installation != c.installation || (c.repoScope != "" && c.repoScope != key(r.fullName())) || !f.repoMatches(r) {
			continue
		}
		for _, is := range r.issues {
			if f.issueMatches(is) {
				out = append(out, found{r, is})
			}
		}
	}
	return out
}

// sortSearch orders results: by created or updated when asked (descending unless order is
// asc), else by best match, which the fake takes as newest first. Ties go by repository
// and number, so pages never overlap.
func sortSearch(list []found, by, order string) {
	at := func(f found) time.Time {
		if by == "updated" {
			return f.is.updated
		}
		return f.is.created
	}
	slices.SortFunc(list, func(a, b found) int {
		c := at(a).Compare(at(b))
		if c == 0 {
			c = strings.Compare(key(a.r.fullName()), key(b.r.fullName()))
		}
		if c == 0 {
			c = a.is.number - b.is.number
		}
		if order != "asc" {
			c = -c
		}
		return c
	})
}
