package asker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/repoconfig"
)

// Candidate issues come from GitHub's issue search, within its limits
// (docs/organisations.md, the inbox):
//   - its own rate limit, 30 requests a minute: the client keeps what each answer says is
//     left and, with nothing left, sleeps until the reset before the next search; a
//     secondary limit is waited out as GitHub asks (Retry-After, else a minute);
//   - at most 1,000 results a search: results come oldest first (sort=created, order=asc),
//     100 a page, and past the 1,000th the search goes on from the last one's creation
//     (created:>=), without taking an issue twice;
//   - incomplete_results (the search timed out): the page is asked again, twice at most,
//     then the inbox says so;
//   - a query of at most 256 characters: repositories are searched in groups that fit.
//
// https://docs.github.com/en/rest/search/search
const (
	searchPerPage = 100
	searchMax     = 1000
	searchQueryAt = 256
	searchTries   = 3
)

// searchPace is search's rate limit as GitHub last told it, shared by a client's inboxes.
type searchPace struct {
	mu   sync.Mutex
	rate github.Rate
}

// inboxScope is where an inbox looks: an organisation, or repositories (named, each
// searched by its own active label; or the installation's, by the default one).
type inboxScope struct {
	org   string
	repos []string
	named bool
}

func (s inboxScope) String() string {
	switch {
	case s.org != "":
		return "org " + s.org
	case s.named:
		return "repositories " + strings.Join(s.repos, ", ")
	}
	return fmt.Sprintf("the installation's %d repositories", len(s.repos))
}

// scope reads where q looks: --org, the --repo list, or else the installation's
// repositories (GET /installation/repositories), which only an installation's token has.
func (c *Client) scope(ctx context.Context, q InboxQuery) (inboxScope, error) {
	switch {
	case q.Org != "" && len(q.Repos) > 0:
		return inboxScope{}, errors.New("give --org or --repo, not both")
	case q.Org != "":
		if strings.ContainsAny(q.Org, "/ :\"") {
			return inboxScope{}, fmt.Errorf("--org %q: give the organisation's login", q.Org)
		}
		return inboxScope{org: q.Org}, nil
	case len(q.Repos) > 0:
		sc := inboxScope{named: true}
		for _, r := range q.Repos {
			if _, _, ok := clarify.ParseRepo(r); !ok {
				return inboxScope{}, fmt.Errorf("--repo %q: write it as OWNER/REPO", r)
			}
			if !slices.ContainsFunc(sc.repos, func(s string) bool { return strings.EqualFold(s, r) }) {
				sc.repos = append(sc.repos, r)
			}
		}
		return sc, nil
	}
	repos, err := ghtransport.AllPages(func(page int) ([]*github.Repository, *github.Response, error) {
		l, resp, err := c.gh.Apps.ListRepos(ctx, &github.ListOptions{Page: page, PerPage: 100})
		if l == nil {
			return nil, resp, err
		}
		return l.Repositories, resp, err
	})
	switch {
	case ghtransport.IsStatus(err, http.StatusForbidden), ghtransport.IsStatus(err, http.StatusUnauthorized):
		return inboxScope{}, errors.New("give --org ORG or --repo OWNER/REPO: this token is no installation's, so it has no " +
			"repositories of its own (GET /installation/repositories: " + shortErr(err) + ")")
	case err != nil:
		return inboxScope{}, fmt.Errorf("list the installation's repositories: %w", err)
	}
	sc := inboxScope{}
	for _, r := range repos {
		sc.repos = append(sc.repos, r.GetFullName())
	}
	return sc, nil
}

// candidates are the open issues carrying Clarify's active label in the scope, found by
// search, each once, in repository and number order.
func (c *Client) candidates(ctx context.Context, sc inboxScope, run *inboxRun) ([]clarify.IssueRef, error) {
	var queries []string
	switch {
	case sc.org != "":
		queries = searchQueries(repoconfig.DefaultLabelActive, []string{"org:" + sc.org})
	case sc.named:
		byLabel := map[string][]string{}
		var labels []string
		for _, r := range sc.repos {
			owner, name, _ := clarify.ParseRepo(r)
			cfg, err := c.repoConfig(ctx, owner, name)
			if err != nil {
				return nil, err
			}
			if _, ok := byLabel[cfg.Labels.Active]; !ok {
				labels = append(labels, cfg.Labels.Active)
			}
			byLabel[cfg.Labels.Active] = append(byLabel[cfg.Labels.Active], "repo:"+r)
		}
		for _, l := range labels {
			queries = append(queries, searchQueries(l, byLabel[l])...)
		}
	default:
		var quals []string
		for _, r := range sc.repos {
			quals = append(quals, "repo:"+r)
		}
		queries = searchQueries(repoconfig.DefaultLabelActive, quals)
	}
	seen := map[clarify.IssueRef]bool{}
	for _, q := range queries {
		if err := c.searchAll(ctx, q, run, seen); err != nil {
			return nil, err
		}
	}
	out := make([]clarify.IssueRef, 0, len(seen))
	for ref := range seen {
		out = append(out, ref)
	}
	slices.SortFunc(out, func(a, b clarify.IssueRef) int {
		if c := strings.Compare(strings.ToLower(a.Owner+"/"+a.Repo), strings.ToLower(b.Owner+"/"+b.Repo)); c != 0 {
			return c
		}
		return a.Number - b.Number
	})
	return out, nil
}

// searchQueries are the queries for label over quals, as few as fit searchQueryAt each.
func searchQueries(label string, quals []string) []string {
	head := fmt.Sprintf("is:issue is:open label:%q", label)
	var out []string
	q := head
	for _, qual := range quals {
		if q != head && len(q)+1+len(qual) > searchQueryAt {
			out = append(out, q)
			q = head
		}
		q += " " + qual
	}
	if q != head || len(quals) == 0 {
		out = append(out, q)
	}
	return out
}

// searchAll pages through query oldest first, going on past 1,000 results from the last
// one's creation, and adds each issue found to seen.
func (c *Client) searchAll(ctx context.Context, query string, run *inboxRun, seen map[clarify.IssueRef]bool) error {
	from := ""
	for {
		q := query
		if from != "" {
			q += " created:>=" + from
		}
		last, full, err := c.searchPages(ctx, q, run, seen)
		switch {
		case err != nil:
			return err
		case !full:
			return nil
		case last == from:
			run.note("more than %d issues labelled at %s: the search cannot go past them, so some may be missing", searchMax, from)
			return nil
		}
		from = last
	}
}

// searchPages reads query's pages, up to GitHub's 1,000 results; full says there were
// more, and last is the creation of the last issue read (the next search's start).
func (c *Client) searchPages(ctx context.Context, query string, run *inboxRun, seen map[clarify.IssueRef]bool) (last string, full bool, err error) {
	for page := 1; ; {
		res, resp, err := c.searchPage(ctx, query, page, run)
		if err != nil {
			return "", false, err
		}
		for _, is := range res.Issues {
			if ref, ok := issueRefOf(is); ok {
				seen[ref] = true
			}
			last = is.GetCreatedAt().UTC().Format(time.RFC3339)
		}
		switch {
		case resp.NextPage == 0:
			return last, false, nil
		case page*searchPerPage >= searchMax:
			return last, true, nil
		}
		page = resp.NextPage
	}
}

// issueRefOf is the issue a search result is, from its repository's API URL.
func issueRefOf(is *github.Issue) (clarify.IssueRef, bool) {
	u := is.GetRepositoryURL()
	i := strings.LastIndex(u, "/repos/")
	if i < 0 || is.GetNumber() <= 0 {
		return clarify.IssueRef{}, false
	}
	owner, repo, ok := clarify.ParseRepo(u[i+len("/repos/"):])
	return clarify.IssueRef{Owner: owner, Repo: repo, Number: is.GetNumber()}, ok
}

// searchPage asks for one page, after waiting for search's rate limit to allow it, again
// while GitHub answers it incomplete (at most searchTries times), and again after a rate
// limit once waited out.
func (c *Client) searchPage(ctx context.Context, query string, page int, run *inboxRun) (*github.IssuesSearchResult, *github.Response, error) {
	opts := &github.SearchOptions{Sort: "created", Order: "asc", ListOptions: github.ListOptions{Page: page, PerPage: searchPerPage}}
	for try := 1; ; try++ {
		if err := c.searchRoom(ctx); err != nil {
			return nil, nil, err
		}
		res, resp, err := c.gh.Search.Issues(ctx, query, opts)
		c.keepSearchRate(resp)
		if wait, limited := searchLimited(err, resp, c.now()); limited && try < searchTries {
			if err := c.sleep(ctx, wait); err != nil {
				return nil, nil, err
			}
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("GitHub's search refused %q: %w", query, err)
		}
		if !res.GetIncompleteResults() {
			return res, resp, nil
		}
		if try >= searchTries {
			run.note("GitHub's search timed out on %q (incomplete_results) %d times: questions may be missing; ask again later",
				query, searchTries)
			return res, resp, nil
		}
	}
}

// searchRoom waits, when the last answer said search has no request left, until its reset.
func (c *Client) searchRoom(ctx context.Context) error {
	c.search.mu.Lock()
	rate := c.search.rate
	c.search.mu.Unlock()
	if rate.Limit == 0 || rate.Remaining > 0 {
		return nil
	}
	if wait := rate.Reset.Sub(c.now()); wait > 0 {
		return c.sleep(ctx, wait+time.Second)
	}
	return nil
}

// keepSearchRate keeps what an answer of the search says of search's rate limit.
func (c *Client) keepSearchRate(resp *github.Response) {
	if resp == nil || resp.Rate.Limit == 0 {
		return
	}
	c.search.mu.Lock()
	c.search.rate = resp.Rate
	c.search.mu.Unlock()
}

// searchLimited reads a refusal for a rate limit (the one reading of GitHub's signals,
// ghtransport.ReadLimit) and how long to wait before asking again.
func searchLimited(err error, resp *github.Response, now time.Time) (time.Duration, bool) {
	if err == nil || resp == nil || resp.Response == nil {
		return 0, false
	}
	l := ghtransport.ReadLimit(resp.Response, now)
	if l.Kind == "" {
		return 0, false
	}
	return max(l.Wait, time.Second), true
}
