package checks

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"golang.org/x/sync/singleflight"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// pullLinksTTL is how long one listing of a repository's open pull requests, kept up to
// date by the pull_request events since, is taken to know every issue they link. Past it
// the next run that needs the checks lists them again, which bounds what a delivery lost
// to this process can hide.
const pullLinksTTL = 15 * time.Minute

// pullLinks remembers, per repository, the issues that open pull requests link (their
// descriptions' closing keywords, and each pull request's own number): from the last
// listing of them, and from every pull_request event this process handled since. An issue
// outside a fresh set has no pull request to check, so its runs need not list them
// (Sync). It is a superset: a link edited away or a pull request closed stays until
// the next listing, which costs a list, never a missed check.
type pullLinks struct {
	// max bounds the repositories kept; past it, it starts afresh.
	max int
	mu  sync.Mutex
	m   map[string]*repoLinks
	// flight makes the runs of a burst in one repository share one listing.
	flight singleflight.Group
}

// repoLinks is one repository's known links: when they were listed (zero: never, only
// events seen) and when each issue was last seen linked.
type repoLinks struct {
	listed time.Time
	issues map[int]time.Time
}

// unlinked reports whether a fresh listing says that no open pull request links the issue.
func (p *pullLinks) unlinked(repo string, issue int, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.m[repo]
	if r == nil || r.listed.IsZero() || now.Sub(r.listed) >= pullLinksTTL {
		return false
	}
	_, linked := r.issues[issue]
	return !linked
}

// saw records issues an event showed linked by an open pull request.
func (p *pullLinks) saw(repo string, issues []int, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.entry(repo)
	for _, n := range issues {
		r.issues[n] = now
	}
}

// listed records a listing of every open pull request that started at started. The links
// an event recorded since it started are kept: the listing may have been answered before
// their pull request existed.
func (p *pullLinks) listed(repo string, pulls []*github.PullRequest, owner, name string, started time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.entry(repo)
	issues := map[int]time.Time{}
	for n, at := range r.issues {
		if !at.Before(started) {
			issues[n] = at
		}
	}
	for _, pr := range pulls {
		for _, n := range openLinks(pr, owner, name) {
			if _, ok := issues[n]; !ok {
				issues[n] = started
			}
		}
	}
	r.listed, r.issues = started, issues
}

func (p *pullLinks) entry(repo string) *repoLinks {
	if p.m == nil || len(p.m) >= p.max {
		p.m = map[string]*repoLinks{}
	}
	r := p.m[repo]
	if r == nil {
		r = &repoLinks{issues: map[int]time.Time{}}
		p.m[repo] = r
	}
	return r
}

// openLinks is every issue an open pull request may hold up: those its description closes
// and its own number (its own conversation's clarifications, see Links).
func openLinks(pr *github.PullRequest, owner, repo string) []int {
	out := LinkedIssues(pr, owner, repo)
	if !slices.Contains(out, pr.GetNumber()) {
		out = append(out, pr.GetNumber())
	}
	return out
}

// noPullLinks reports whether this process knows that no open pull request links the
// issue, so that its checks need no listing. Only a lone server knows
// (seesEveryEvent): replicas and bot action's runs each see a part of the
// pull_request events, so they list every time.
func (c *Checks) noPullLinks(ref clarify.IssueRef) bool {
	return c.seesEveryEvent && c.links.unlinked(ref.Owner+"/"+ref.Repo, ref.Number, c.now())
}

// openPulls lists the repository's open pull requests, once for every run that asks at
// the same moment, and records what they link.
func (c *Checks) openPulls(ctx context.Context, client *github.Client, ref clarify.IssueRef) ([]*github.PullRequest, error) {
	repo := ref.Owner + "/" + ref.Repo
	v, err, _ := c.links.flight.Do(repo, func() (any, error) {
		started := c.now()
		pulls, err := ghtransport.AllPages(func(page int) ([]*github.PullRequest, *github.Response, error) {
			return client.PullRequests.List(ctx, ref.Owner, ref.Repo,
				&github.PullRequestListOptions{State: "open", ListOptions: github.ListOptions{PerPage: 100, Page: page}})
		})
		if err == nil {
			c.links.listed(repo, pulls, ref.Owner, ref.Repo, started)
		}
		return pulls, err
	})
	pulls, _ := v.([]*github.PullRequest)
	return pulls, err
}

// Saw records the issues an open pull request's event shows it links.
func (c *Checks) Saw(owner, repo string, pr *github.PullRequest) {
	c.links.saw(owner+"/"+repo, openLinks(pr, owner, repo), c.now())
}
