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
	// Failed counts the issues and repositories whose sweep failed; each is logged, the
	// rest of the sweep goes on, and the next sweep tries them again.
	Failed int
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
		stats.Failed += st.Failed
		if err != nil {
			// One installation's trouble must not starve the others.
			zerolog.Ctx(ctx).Error().Err(err).Int64(githubapp.LogKeyInstallationID, inst.GetID()).Msg("Sweep of an installation failed")
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return stats, fmt.Errorf("sweep: %d installation(s) had failures, first: %w", len(errs), errs[0])
	}
	return stats, nil
}

// installation sweeps one installation's repositories. A repository or issue that fails
// is logged and skipped so that it never holds up the others; the error returned after
// the whole pass names the first.
func (s *Sweep) installation(ctx context.Context, id int64) (stats SweepStats, err error) {
	spent := new(atomic.Int64)
	ctx = context.WithValue(ctx, budgetKey{}, spent)
	logger := zerolog.Ctx(ctx).With().Int64(githubapp.LogKeyInstallationID, id).Logger()
	ctx = logger.WithContext(ctx)
	defer func() { stats.Requests = int(spent.Load()) }()

	ctx, client, err := s.installationClient(ctx, id)
	if err != nil {
		return stats, err
	}
	repos, err := listRepos(ctx, client)
	if err != nil {
		return stats, err
	}
	start := s.mark(id)
	var failures []error
	defer func() {
		if err == nil && len(failures) > 0 {
			err = fmt.Errorf("%d issue(s) or repositories failed, first: %w", len(failures), failures[0])
		}
	}()
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
		stopped, n, errs := s.repo(ctx, client, repo, from, spent)
		stats.Issues += n
		stats.Failed += len(errs)
		failures = append(failures, errs...)
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
// deadlocks among their ledgers. It returns where it stopped when the budget ran out, how
// many issues it visited, and the failures it logged and went past.
func (s *Sweep) repo(ctx context.Context, client *github.Client, repo *github.Repository, from int, spent *atomic.Int64) (*sweepMark, int, []error) {
	owner, name := repo.GetOwner().GetLogin(), repo.GetName()
	logger := zerolog.Ctx(ctx).With().Str(githubapp.LogKeyRepositoryOwner, owner).Str(githubapp.LogKeyRepositoryName, name).Logger()
	labels := s.Configs.Labels(owner, name)
	// Closed issues too: one closed while its close went undelivered (or undelivered to a
	// process that was down) still carries the active label, and is settled here.
	issues, err := allPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, name, &github.IssueListByRepoOptions{State: "all", Labels: []string{labels.Active},
			Sort: "created", Direction: "asc", ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		err = fmt.Errorf("list active issues of %s: %w", repo.GetFullName(), err)
		logger.Error().Err(err).Msg("Sweep of a repository failed")
		return nil, 0, []error{err}
	}
	slices.SortFunc(issues, func(a, b *github.Issue) int { return cmp.Compare(a.GetNumber(), b.GetNumber()) })

	var ledgers []clarify.Ledger
	var failed []error
	issueOf := map[int]*github.Issue{}
	n := 0
	visit := func(number int, trig trigger) (clarify.Ledger, bool) {
		ilog := logger.With().Int(LogKeyIssue, number).Logger()
		l, err := s.run(ilog.WithContext(ctx), client, issueRef{Owner: owner, Repo: name, Number: number}, trig)
		if err != nil {
			// One issue's trouble never holds up the others; the next sweep tries again.
			ilog.Error().Err(err).Msg("Sweep of an issue failed")
			failed = append(failed, err)
			return l, false
		}
		return l, true
	}
	for _, is := range issues {
		// Pull requests too: their conversations take commands like issues (GitHub
		// delivers their comments as issue_comment), so they time out like issues.
		if is.GetNumber() < from {
			continue
		}
		if s.Budget > 0 && int(spent.Load()) >= s.Budget {
			return &sweepMark{Repo: repo.GetFullName(), Issue: is.GetNumber()}, n, failed
		}
		trig := trigger{Kind: triggerTick, Issue: is}
		if is.GetState() == "closed" {
			trig = trigger{Kind: triggerIssue, Event: clarify.EventClosed, At: is.GetClosedAt().Time, Issue: is, IssueClosed: true}
		}
		l, ok := visit(is.GetNumber(), trig)
		n++
		if ok && trig.Kind == triggerTick {
			ledgers = append(ledgers, l)
			issueOf[is.GetNumber()] = is
		}
	}
	if from > 0 || len(ledgers) < 2 {
		// A resumed run saw only part of the repository, so deadlocks wait for a whole
		// pass; and one issue alone holds no cycle between issues worth a config read.
		return nil, n, failed
	}
	cfg, err := s.Configs.Load(ctx, client, owner, name)
	if err != nil {
		logger.Error().Err(err).Msg("Deadlock check of a repository skipped: its config could not be read")
		return nil, n, append(failed, err)
	}
	for _, br := range clarify.Breaks(ledgers, cfg.Policy) {
		cycle := append([]string(nil), br.Cycle...)
		if len(cycle) > 0 {
			cycle = append(cycle, cycle[0]) // close the loop for the reader
		}
		reason := fmt.Sprintf("deadlock: %s wait on each other in a cycle; this is the question of the lowest-priority asker in it", strings.Join(cycle, " → "))
		visit(br.Issue, trigger{Kind: triggerBreak, Issue: issueOf[br.Issue], Break: deadlockBreak{ID: br.ID, Reason: reason}})
	}
	return nil, n, failed
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
