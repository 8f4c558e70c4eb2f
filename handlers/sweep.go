package handlers

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
)

// DefaultSweepBudget is how many GitHub requests one sweep may spend per installation.
const DefaultSweepBudget = 200

// Sweep walks every installation's open clarifications so that time moves the protocol when
// nobody comments: stale pings, fallbacks, escalations, and deadlocks between issues. It
// finds the issues through the active label, spends at most Budget requests per
// installation per run, and resumes where the last run stopped.
type Sweep struct {
	*Base
	// Budget bounds the requests one run spends per installation (checked between issues).
	Budget int

	mu sync.Mutex
	// resume holds, per installation, the repository and issue a run stopped before.
	resume map[int64]sweepMark
}

type sweepMark struct {
	Repo  string
	Issue int
}

// SweepStats says what one run did.
type SweepStats struct {
	Installations, Repos, Issues, Requests int
	// Stopped counts the installations whose budget ran out before the end.
	Stopped int
}

type budgetKey struct{}

// CountRequests is a client middleware that counts requests against the budget carried in
// the request's context, so the sweep knows what it spent whatever code made the call.
func CountRequests(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if n, ok := r.Context().Value(budgetKey{}).(*atomic.Int64); ok {
			n.Add(1)
		}
		return next.RoundTrip(r)
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls the function, so a plain function can be a transport.
func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Run sweeps every installation once.
func (s *Sweep) Run(ctx context.Context) (SweepStats, error) {
	var stats SweepStats
	app, err := s.Clients.NewAppClient()
	if err != nil {
		return stats, err
	}
	installs, err := allPages(func(page int) ([]*github.Installation, *github.Response, error) {
		return app.Apps.ListInstallations(ctx, &github.ListOptions{PerPage: 100, Page: page})
	})
	if err != nil {
		return stats, fmt.Errorf("list installations: %w", err)
	}
	var errs []error
	for _, inst := range installs {
		st, err := s.installation(ctx, inst.GetID())
		stats.Installations++
		stats.Repos += st.Repos
		stats.Issues += st.Issues
		stats.Requests += st.Requests
		stats.Stopped += st.Stopped
		if err != nil {
			// One installation's trouble must not starve the others.
			zerolog.Ctx(ctx).Error().Err(err).Int64(githubapp.LogKeyInstallationID, inst.GetID()).Msg("Sweep of an installation failed")
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return stats, fmt.Errorf("sweep: %d installation(s) failed, first: %w", len(errs), errs[0])
	}
	return stats, nil
}

func (s *Sweep) installation(ctx context.Context, id int64) (SweepStats, error) {
	var stats SweepStats
	spent := new(atomic.Int64)
	ctx = context.WithValue(ctx, budgetKey{}, spent)
	logger := zerolog.Ctx(ctx).With().Int64(githubapp.LogKeyInstallationID, id).Logger()
	ctx = logger.WithContext(ctx)
	defer func() { stats.Requests = int(spent.Load()) }()

	client, err := s.Clients.NewInstallationClient(id)
	if err != nil {
		return stats, err
	}
	repos, err := listRepos(ctx, client)
	if err != nil {
		return stats, err
	}
	start := s.mark(id)
	for _, repo := range repos {
		full := repo.GetFullName()
		if start.Repo != "" && full < start.Repo {
			continue
		}
		stats.Repos++
		from := 0
		if full == start.Repo {
			from = start.Issue
		}
		stopped, n, err := s.repo(ctx, client, repo, from, spent)
		stats.Issues += n
		if err != nil {
			return stats, err
		}
		if stopped != nil {
			stats.Stopped++
			s.setMark(id, *stopped)
			logger.Warn().Str("repository", stopped.Repo).Int(LogKeyIssue, stopped.Issue).Int64("spent", spent.Load()).
				Msg("Sweep budget spent; the next run continues from here")
			return stats, nil
		}
	}
	s.setMark(id, sweepMark{})
	return stats, nil
}

func listRepos(ctx context.Context, client *github.Client) ([]*github.Repository, error) {
	repos, err := allPages(func(page int) ([]*github.Repository, *github.Response, error) {
		list, resp, err := client.Apps.ListRepos(ctx, &github.ListOptions{PerPage: 100, Page: page})
		if err != nil {
			return nil, resp, err
		}
		return list.Repositories, resp, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list installation repositories: %w", err)
	}
	// A stable order lets a run resume where the last one stopped.
	slices.SortFunc(repos, func(a, b *github.Repository) int { return cmp.Compare(a.GetFullName(), b.GetFullName()) })
	return repos, nil
}

// repo sweeps one repository's active issues from issue number from on, then breaks the
// deadlocks among their ledgers. It returns where it stopped when the budget ran out.
func (s *Sweep) repo(ctx context.Context, client *github.Client, repo *github.Repository, from int, spent *atomic.Int64) (*sweepMark, int, error) {
	owner, name := repo.GetOwner().GetLogin(), repo.GetName()
	labels := s.Configs.Labels(owner, name)
	issues, err := allPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, name, &github.IssueListByRepoOptions{State: "open", Labels: []string{labels.Active},
			Sort: "created", Direction: "asc", ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list active issues of %s: %w", repo.GetFullName(), err)
	}
	slices.SortFunc(issues, func(a, b *github.Issue) int { return cmp.Compare(a.GetNumber(), b.GetNumber()) })

	var ledgers []clarify.Ledger
	labelsOf := map[int][]*github.Label{}
	n := 0
	for _, is := range issues {
		if is.GetNumber() < from || is.IsPullRequest() {
			continue
		}
		if s.Budget > 0 && int(spent.Load()) >= s.Budget {
			return &sweepMark{Repo: repo.GetFullName(), Issue: is.GetNumber()}, n, nil
		}
		ref := issueRef{Owner: owner, Repo: name, Number: is.GetNumber()}
		ictx := zerolog.Ctx(ctx).With().Str(githubapp.LogKeyRepositoryOwner, owner).Str(githubapp.LogKeyRepositoryName, name).
			Int(LogKeyIssue, ref.Number).Logger().WithContext(ctx)
		l, err := s.run(ictx, client, ref, trigger{Kind: triggerTick, Labels: is.Labels})
		if err != nil {
			return nil, n, err
		}
		n++
		ledgers = append(ledgers, l)
		labelsOf[ref.Number] = is.Labels
	}
	if from > 0 || len(ledgers) < 2 {
		// A resumed run saw only part of the repository, so deadlocks wait for a whole
		// pass; and one issue alone holds no cycle between issues worth a config read.
		return nil, n, nil
	}
	cfg, err := s.Configs.Load(ctx, client, owner, name)
	if err != nil {
		return nil, n, err
	}
	for _, br := range clarify.Breaks(ledgers, cfg.Policy) {
		cycle := append([]string(nil), br.Cycle...)
		if len(cycle) > 0 {
			cycle = append(cycle, cycle[0]) // close the loop for the reader
		}
		reason := fmt.Sprintf("deadlock: %s wait on each other in a cycle; this is the question of the lowest-priority asker in it", strings.Join(cycle, " → "))
		ref := issueRef{Owner: owner, Repo: name, Number: br.Issue}
		if _, err := s.run(ctx, client, ref, trigger{Kind: triggerBreak, Labels: labelsOf[br.Issue], Break: deadlockBreak{ID: br.ID, Reason: reason}}); err != nil {
			return nil, n, err
		}
	}
	return nil, n, nil
}

func (s *Sweep) mark(id int64) sweepMark {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resume[id]
}

func (s *Sweep) setMark(id int64, m sweepMark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resume == nil {
		s.resume = map[int64]sweepMark{}
	}
	s.resume[id] = m
}
