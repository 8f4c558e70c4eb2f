package sweep

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/repoconfig"
)

// DefaultSweepBudget is how many GitHub requests one sweep may spend per installation.
const DefaultSweepBudget = 200

// DefaultReconcileEvery is how often the sweep walks every installation for what its
// deadline index cannot know: issues it never saw (labelled by hand, asked through another
// replica), closed issues that still carry the active label, issues whose last event went
// unrun, repositories whose config changed. Fifteen minutes is half the default SLA, so an
// issue the index missed is still taken well before its first wait has passed twice; and a
// walk that finds nothing new costs one listing per repository with active issues plus its
// config read, under one request a minute for 1,000 issues in ten repositories.
const DefaultReconcileEvery = 15 * time.Minute

// Installations moves time in every installation's open clarifications when nobody comments:
// stale pings, fallbacks, escalations, and deadlocks between issues. Each run visits the
// issues whose deadline is due, as the deadline index (Base.Index) says, and so makes no
// request when nothing is due; every ReconcileEvery (and on the first run of a process,
// whose index starts empty) it also walks the installations for the issues the index does
// not know. It spends at most Budget requests per installation per run; a walk the budget
// cuts short resumes where it stopped. Runs are serialised.
type Installations struct {
	*handlers.Base
	// Budget bounds the requests one run spends per installation (checked between issues).
	Budget int
	// ReconcileEvery is how often a run also walks every installation; zero means
	// DefaultReconcileEvery.
	ReconcileEvery time.Duration
	// OnRun, when set, is told what each run did and how long it took by the wall clock,
	// for the app's metrics.
	OnRun func(stats Stats, took time.Duration, err error)

	// mu serialises runs, and guards what the sweep remembers between them.
	mu sync.Mutex
	// resume holds, per installation, the repository and issue a walk stopped before.
	resume map[int64]sweepMark
	// round is the walk under way, which the budget may spread over several runs; nil
	// between walks.
	round *reconcileRound
	// lastRound is when the last walk began; zero before the first.
	lastRound time.Time
	// configs holds, per repository, the config its issues were last walked under, so
	// that a change (a label renamed, a role moved) reaches issues nobody comments on.
	configs map[string]repoconfig.Config
}

// sweepMark is where a walk stopped in one installation: the repository, and the issue
// number to go on from.
type sweepMark struct {
	Repo  string
	Issue int
}

// reconcileRound is one walk over every installation.
type reconcileRound struct {
	// done holds the installations walked to the end (or failed: the next walk tries them).
	done map[int64]bool
}

// Stats says what one run did.
type Stats struct {
	// Installations counts the installations the run worked in; Repos the repositories
	// whose active issues the walk listed; Issues the issues visited: Due, Found, and those
	// read afresh because their edges lie on a cycle.
	Installations, Repos, Issues int
	// Requests counts the GitHub requests made on behalf of the installations.
	Requests int
	// Due counts the issues visited because the index said their deadline had come.
	Due int
	// Found counts the issues the walk visited because the index could not vouch for them.
	Found int
	// Breaks counts the deadlock breaks carried out.
	Breaks int
	// Reconciled says the run walked the installations (a new walk, or the rest of one).
	Reconciled bool
	// Stopped counts the installations whose budget ran out before the end.
	Stopped int
	// Failed counts the issues and repositories whose sweep failed; each is logged, the
	// rest of the sweep goes on, and the next sweep tries them again.
	Failed int
}

// Run sweeps once: the issues that are due, a walk when one is due or under way, then the
// deadlocks of the repositories where edges changed or the walk passed. One issue,
// repository or installation that fails is logged and skipped; the error returned after
// the whole run names the first.
func (s *Installations) Run(ctx context.Context) (stats Stats, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.OnRun != nil {
		// The wall clock, not s.Now: a harness's virtual clock does not move during a run.
		start := time.Now()
		defer func() { s.OnRun(stats, time.Since(start), err) }()
	}
	now := s.Now()
	p := &sweepPass{s: s, insts: map[int64]*instSweep{}, visited: map[string]bool{}, walked: map[handlers.RepoRef]bool{}}

	if err := p.due(ctx, now); err != nil {
		p.fail(ctx, err, "Sweep of the due issues failed")
	}
	if s.round == nil && (s.lastRound.IsZero() || now.Sub(s.lastRound) >= s.reconcileEvery()) {
		s.round, s.lastRound = &reconcileRound{done: map[int64]bool{}}, now
	}
	if s.round != nil {
		p.stats.Reconciled = true
		if err := p.reconcile(ctx); err != nil {
			p.fail(ctx, err, "Sweep walk failed")
		}
	}
	p.deadlocks(ctx)
	s.FlushDashboards(ctx)
	s.FlushDecisions(ctx)

	for _, in := range p.insts {
		p.stats.Requests += int(in.spent.Load())
	}
	if len(p.failures) > 0 {
		return p.stats, fmt.Errorf("sweep: %d failure(s), first: %w", len(p.failures), p.failures[0])
	}
	return p.stats, nil
}

func (s *Installations) reconcileEvery() time.Duration {
	if s.ReconcileEvery > 0 {
		return s.ReconcileEvery
	}
	return DefaultReconcileEvery
}

// sweepPass is one run's state.
type sweepPass struct {
	s *Installations
	// mu guards stats, visited and failures while the due pass visits installations side
	// by side (due); the rest of a run is one goroutine.
	mu    sync.Mutex
	stats Stats
	insts map[int64]*instSweep
	// visited holds the issues this run visited (or tried to), each at most once.
	visited map[string]bool
	// walked holds the repositories the walk listed active issues in.
	walked   map[handlers.RepoRef]bool
	failures []error
}

// instSweep is one installation within a run: its client, and the requests spent on it.
type instSweep struct {
	id      int64
	ctx     context.Context
	client  *github.Client
	spent   *atomic.Int64
	stopped bool
	err     error
}

// installation returns the run's state of installation id, made on first use; its err is
// set when no client could be had.
func (p *sweepPass) installation(ctx context.Context, id int64) *instSweep {
	if in := p.insts[id]; in != nil {
		return in
	}
	spent := new(atomic.Int64)
	logger := zerolog.Ctx(ctx).With().Int64(githubapp.LogKeyInstallationID, id).Logger()
	ictx := logger.WithContext(ghtransport.WithRequestCount(ctx, spent))
	ictx, client, err := p.s.InstallationClient(ictx, id)
	in := &instSweep{id: id, ctx: ictx, client: client, spent: spent, err: err}
	p.insts[id] = in
	p.stats.Installations++
	if err != nil {
		p.fail(ictx, fmt.Errorf("client of installation %d: %w", id, err), "Sweep of an installation failed")
	}
	return in
}

// spentAll reports whether the installation's budget for this run is spent.
func (p *sweepPass) spentAll(in *instSweep) bool {
	if p.s.Budget <= 0 || int(in.spent.Load()) < p.s.Budget {
		return false
	}
	if !in.stopped {
		in.stopped = true
		p.count(func(st *Stats) { st.Stopped++ })
	}
	return true
}

func (p *sweepPass) fail(ctx context.Context, err error, msg string) {
	zerolog.Ctx(ctx).Error().Err(err).Msg(msg)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failures = append(p.failures, err)
	p.stats.Failed++
}

// count changes the run's stats, under its lock.
func (p *sweepPass) count(change func(*Stats)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(&p.stats)
}

// markVisited notes that the run visits (or tries to) the issue of key, and reports whether
// it had already.
func (p *sweepPass) markVisited(key string) (already bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	already = p.visited[key]
	p.visited[key] = true
	return already
}

// visit runs one issue. A failure is logged and counted, never returned: one issue's
// trouble never holds up the others, and the next sweep tries it again (a failed run leaves
// its index entry as it was, still due).
func (p *sweepPass) visit(in *instSweep, ref clarify.IssueRef, is *github.Issue, brk *deadlockBreak) {
	p.markVisited(ref.String())
	logger := zerolog.Ctx(in.ctx).With().Str(githubapp.LogKeyRepositoryOwner, ref.Owner).
		Str(githubapp.LogKeyRepositoryName, ref.Repo).Int(handlers.LogKeyIssue, ref.Number).Logger()
	ctx := logger.WithContext(in.ctx)
	var err error
	if brk != nil {
		err = p.s.BreakDeadlock(ctx, in.client, ref, is, brk.ID, brk.Reason)
	} else {
		_, err = p.s.RunIssue(ctx, in.client, ref, is)
	}
	if err != nil {
		p.fail(ctx, err, "Sweep of an issue failed")
	}
}

// dueWorkers is how many installations' due issues a sweep visits at once.
const dueWorkers = 8

// dueIn visits one installation's due entries in order, until its budget is spent.
func (p *sweepPass) dueIn(in *instSweep, entries []handlers.IndexEntry) {
	for _, e := range entries {
		p.mu.Lock()
		seen := p.visited[e.Key()]
		p.mu.Unlock()
		if seen || p.spentAll(in) {
			continue
		}
		p.count(func(st *Stats) { st.Due++; st.Issues++ })
		p.visitEntry(in, e, nil)
	}
}

// deadlockBreak names the clarification a visit escalates to break a deadlock, and why.
type deadlockBreak struct{ ID, Reason string }

// visitEntry runs an issue the index names. The issue is read first (one request): a run
// starts from the labels it carries and tells its assignees of an escalation, and it may
// have been closed while the close went undelivered. brk, when set, is the deadlock break
// to carry out.
func (p *sweepPass) visitEntry(in *instSweep, e handlers.IndexEntry, brk *deadlockBreak) {
	ref := clarify.IssueRef{Owner: e.Owner, Repo: e.Repo, Number: e.Number}
	is, _, err := in.client.Issues.Get(in.ctx, e.Owner, e.Repo, e.Number)
	if err != nil {
		p.markVisited(ref.String())
		if ledger.Gone(err) {
			// Deleted, or the repository is gone from the installation: nothing is left to
			// run, and a walk finds the issue again should it come back.
			zerolog.Ctx(in.ctx).Info().Str("issue", ref.String()).Msg("An issue in the deadline index is gone; forgotten")
			if err := p.s.Index().Remove(in.ctx, e); err != nil {
				zerolog.Ctx(in.ctx).Warn().Err(err).Msg("Deadline index not updated")
			}
			return
		}
		p.fail(in.ctx, fmt.Errorf("read %s: %w", ref.String(), err), "Sweep of an issue failed")
		return
	}
	p.visit(in, ref, is, brk)
}

// due visits the issues whose deadline has come, earliest first. It makes no request when
// none has: the installations are not even listed. Each visit's run moves the issue's
// entry on; an entry whose run failed stays due, so the next run tries it again, and those
// an installation's budget left over are still due at the next run.
func (p *sweepPass) due(ctx context.Context, now time.Time) error {
	entries, err := p.s.Index().Due(ctx, now)
	if err != nil {
		return fmt.Errorf("read the deadline index: %w", err)
	}
	// Each installation's due issues one after another, earliest first, within its own
	// budget and pacer; the installations side by side, dueWorkers at a time, so that
	// hundreds falling due together in many installations are not one queue.
	var order []int64
	byInst := map[int64][]handlers.IndexEntry{}
	for _, e := range entries {
		if len(byInst[e.Installation]) == 0 {
			order = append(order, e.Installation)
		}
		byInst[e.Installation] = append(byInst[e.Installation], e)
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, dueWorkers)
	for _, id := range order {
		in := p.installation(ctx, id)
		if in.err != nil {
			continue
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			p.dueIn(in, byInst[id])
		})
	}
	wg.Wait()
	for _, in := range p.insts {
		if in.stopped {
			zerolog.Ctx(in.ctx).Warn().Int64("spent", in.spent.Load()).
				Msg("Sweep budget spent on due issues; those left are taken by the next run")
		}
	}
	return nil
}

// reconcile walks every installation not yet walked in this round: their repositories,
// and in each the issues carrying the active label. The round ends when every
// installation was walked to the end (or failed, which the next round tries again); one
// the budget stopped is taken up by the next run where it stopped.
func (p *sweepPass) reconcile(ctx context.Context) error {
	s := p.s
	app, err := s.Clients().NewAppClient()
	if err != nil {
		return err
	}
	installs, err := ghtransport.AllPages(func(page int) ([]*github.Installation, *github.Response, error) {
		return app.Apps.ListInstallations(ctx, &github.ListOptions{PerPage: 100, Page: page})
	})
	if err != nil {
		return fmt.Errorf("list installations: %w", err)
	}
	complete := true
	for _, inst := range installs {
		id := inst.GetID()
		if s.round.done[id] {
			continue
		}
		in := p.installation(ctx, id)
		if in.err == nil && p.walkInstallation(in) {
			complete = false
			continue
		}
		s.round.done[id] = true
	}
	if complete {
		s.round = nil
	}
	return nil
}

// walkInstallation walks one installation's repositories from where the last walk
// stopped; it reports whether the budget stopped it. A repository that fails is logged and
// skipped, never holding up the others.
func (p *sweepPass) walkInstallation(in *instSweep) (stopped bool) {
	s := p.s
	if p.spentAll(in) {
		return true
	}
	repos, err := listRepos(in.ctx, in.client)
	if err != nil {
		p.fail(in.ctx, err, "Sweep of an installation failed")
		return false
	}
	start := s.mark(in.id)
	for _, repo := range repos {
		full := repo.GetFullName()
		if start.Repo != "" && full < start.Repo {
			continue
		}
		from := 0
		if full == start.Repo {
			from = start.Issue
		}
		if stop := p.walkRepo(in, repo, from); stop != nil {
			s.setMark(in.id, *stop)
			zerolog.Ctx(in.ctx).Warn().Str("repository", stop.Repo).Int(handlers.LogKeyIssue, stop.Issue).Int64("spent", in.spent.Load()).
				Msg("Sweep budget spent; the next run continues the walk from here")
			return true
		}
	}
	s.setMark(in.id, sweepMark{})
	return false
}

func listRepos(ctx context.Context, client *github.Client) ([]*github.Repository, error) {
	repos, err := ghtransport.AllPages(func(page int) ([]*github.Repository, *github.Response, error) {
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

// walkRepo lists one repository's issues carrying the active label (the list API, not
// search, with conditional requests) and visits, from issue number from on, those the index
// cannot vouch for: closed ones (settled here), ones whose index entry did not see them as
// listed and this process never saved (a label put on by hand, a restart without Redis),
// ones updated since they were last saved (an event whose run failed), ones whose index
// entry is lost; and all of them when the repository's config changed since the last walk. An issue the index knows
// and nothing touched since is left to its deadline. The labels the listing shows as GitHub
// made them on an issue's first use get Clarify's colour (ColourLabels). It returns where
// it stopped when the budget ran out.
func (p *sweepPass) walkRepo(in *instSweep, repo *github.Repository, from int) *sweepMark {
	owner, name, full := repo.GetOwner().GetLogin(), repo.GetName(), repo.GetFullName()
	rr := handlers.RepoRef{Installation: in.id, Owner: owner, Repo: name}
	logger := zerolog.Ctx(in.ctx).With().Str(githubapp.LogKeyRepositoryOwner, owner).Str(githubapp.LogKeyRepositoryName, name).Logger()
	ctx := logger.WithContext(in.ctx)
	if p.spentAll(in) {
		return &sweepMark{Repo: full, Issue: from}
	}
	p.stats.Repos++
	issues, err := p.listActive(ctx, in, owner, name)
	if err != nil {
		p.fail(ctx, fmt.Errorf("list active issues of %s: %w", full, err), "Sweep of a repository failed")
		return nil
	}
	p.s.ColourLabels(ctx, in.client, owner, name, p.s.Configs().Labels(owner, name), issues)
	// Without the index every issue is visited, as before there was one: slower, never wrong.
	entries, err := p.s.Index().Repo(ctx, in.id, owner, name)
	indexDown := err != nil
	if indexDown {
		logger.Warn().Err(err).Msg("Deadline index unreadable: every active issue of the repository is visited")
	}
	if len(issues) == 0 && len(entries) == 0 {
		return nil
	}
	p.walked[rr] = true
	known := map[int]handlers.IndexEntry{}
	for _, e := range entries {
		known[e.Number] = e
	}
	cfg, changed := p.configChanged(ctx, in, rr)
	if mark := p.walkIssues(in, rr, full, issues, from, known, !indexDown && !changed); mark != nil {
		return mark
	}
	if changed {
		p.walkRenamed(in, known)
	}
	if cfg != nil {
		// Only once the whole repository was walked under it, so a walk the budget cut
		// short still sees the change when it resumes.
		p.s.configs[rr.Key()] = *cfg
	}
	return nil
}

// listActive lists the repository's issues that carry the active label, by number.
// Closed issues too: one closed while its close went undelivered still carries the active
// label, and is settled here. Pull requests too: their conversations take commands like
// issues, so they time out like issues.
func (p *sweepPass) listActive(ctx context.Context, in *instSweep, owner, name string) ([]*github.Issue, error) {
	labels := p.s.Configs().Labels(owner, name)
	issues, err := ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return in.client.Issues.ListByRepo(ctx, owner, name, &github.IssueListByRepoOptions{State: "all", Labels: []string{labels.Active},
			Sort: "created", Direction: "asc", ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	slices.SortFunc(issues, func(a, b *github.Issue) int { return cmp.Compare(a.GetNumber(), b.GetNumber()) })
	return issues, err
}

// walkIssues visits the listed issues from number from on that the index and this
// process's saves cannot vouch for (trust false: none), taking each out of known; it
// returns where to resume when the budget runs out.
func (p *sweepPass) walkIssues(in *instSweep, rr handlers.RepoRef, full string, issues []*github.Issue, from int, known map[int]handlers.IndexEntry, trust bool) *sweepMark {
	for _, is := range issues {
		num := is.GetNumber()
		ref := clarify.IssueRef{Owner: rr.Owner, Repo: rr.Repo, Number: num}
		entry, indexed := known[num]
		delete(known, num)
		if num < from || p.visited[ref.String()] || trust && p.vouched(ref, is, entry, indexed) {
			continue
		}
		if p.spentAll(in) {
			return &sweepMark{Repo: full, Issue: num}
		}
		p.stats.Found++
		p.stats.Issues++
		p.visit(in, ref, is, nil)
	}
	return nil
}

// vouched says whether an open issue is known unchanged: its index entry saw it as it is
// listed, or this process saved it since it was last updated (and indexed it, if it put
// it in the index at all).
func (p *sweepPass) vouched(ref clarify.IssueRef, is *github.Issue, entry handlers.IndexEntry, indexed bool) bool {
	if is.GetState() == "closed" {
		return false
	}
	return entry.UnchangedSince(is) || p.s.SavedSince(ref, is, indexed)
}

// walkRenamed runs the issues the index holds that no longer carry the active label under
// its name (the config renamed it), so their labels follow the new config. They are few
// and the change is rare: no budget check here.
func (p *sweepPass) walkRenamed(in *instSweep, known map[int]handlers.IndexEntry) {
	rest := slices.Collect(maps.Values(known))
	handlers.SortEntries(rest)
	for _, e := range rest {
		if p.visited[e.Key()] {
			continue
		}
		p.stats.Found++
		p.stats.Issues++
		p.visitEntry(in, e, nil)
	}
}

// configChanged reads the repository's config (cached for five minutes, so this costs a
// request per repository with active issues per walk at most) and reports whether it
// differs from the one the last walk saw; the first walk of a process has nothing to
// compare with. It returns the config to remember once the walk is through, nil when it
// could not be read (the runs report that).
func (p *sweepPass) configChanged(ctx context.Context, in *instSweep, rr handlers.RepoRef) (*repoconfig.Config, bool) {
	s := p.s
	cfg, err := s.Configs().Load(ctx, in.client, rr.Owner, rr.Repo)
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Repository config unreadable; a change in it is looked for at the next walk")
		return nil, false
	}
	if s.configs == nil {
		s.configs = map[string]repoconfig.Config{}
	}
	last, ok := s.configs[rr.Key()]
	return &cfg.Config, ok && !reflect.DeepEqual(last, cfg.Config)
}

// deadlocks looks for cycles among the wait-for edges the index keeps, in the repositories
// where a run saved edges since the last look or that the walk passed: no request unless a
// cycle is there. The issues on a cycle are read afresh first (their entries may be older
// than their ledgers, or drawn under an older policy), then the cycles still there are
// broken by escalating the lowest-priority asker's question in each.
func (p *sweepPass) deadlocks(ctx context.Context) {
	s := p.s
	repos := s.WaitsChanged()
	for rr := range p.walked {
		if repos == nil {
			repos = map[handlers.RepoRef]bool{}
		}
		repos[rr] = true
	}
	order := slices.SortedFunc(maps.Keys(repos), func(a, b handlers.RepoRef) int {
		return cmp.Or(cmp.Compare(a.Installation, b.Installation), cmp.Compare(a.Key(), b.Key()))
	})
	for _, rr := range order {
		p.deadlocksIn(ctx, rr)
	}
}

func (p *sweepPass) deadlocksIn(ctx context.Context, rr handlers.RepoRef) {
	s := p.s
	logger := zerolog.Ctx(ctx).With().Int64(githubapp.LogKeyInstallationID, rr.Installation).
		Str(githubapp.LogKeyRepositoryOwner, rr.Owner).Str(githubapp.LogKeyRepositoryName, rr.Repo).Logger()
	ctx = logger.WithContext(ctx)
	entries, edges, err := repoEdges(ctx, s.Index(), rr)
	if err != nil {
		logger.Warn().Err(err).Msg("Deadlock check skipped: the deadline index is unreadable")
		return
	}
	onCycles := clarify.OnCycles(edges)
	if len(onCycles) == 0 {
		return
	}
	in := p.installation(ctx, rr.Installation)
	if in.err != nil {
		return
	}
	byIssue := map[int]handlers.IndexEntry{}
	for _, e := range entries {
		byIssue[e.Number] = e
	}
	refreshed := false
	for _, w := range onCycles {
		e, ok := byIssue[w.Issue]
		if !ok || p.visited[e.Key()] {
			continue
		}
		p.stats.Issues++
		p.visitEntry(in, e, nil)
		refreshed = true
	}
	if refreshed {
		if entries, edges, err = repoEdges(ctx, s.Index(), rr); err != nil {
			logger.Warn().Err(err).Msg("Deadlock check skipped: the deadline index is unreadable")
			return
		}
		byIssue = map[int]handlers.IndexEntry{}
		for _, e := range entries {
			byIssue[e.Number] = e
		}
	}
	for _, br := range clarify.BreaksOf(edges) {
		cycle := append([]string(nil), br.Cycle...)
		if len(cycle) > 0 {
			cycle = append(cycle, cycle[0]) // close the loop for the reader
		}
		reason := fmt.Sprintf("deadlock: %s wait on each other in a cycle; this is the question of the lowest-priority asker in it", strings.Join(cycle, " → "))
		e, ok := byIssue[br.Issue]
		if !ok {
			continue
		}
		p.stats.Breaks++
		p.visitEntry(in, e, &deadlockBreak{ID: br.ID, Reason: reason})
	}
}

// repoEdges returns a repository's index entries and their wait-for edges together.
func repoEdges(ctx context.Context, index handlers.DeadlineIndex, rr handlers.RepoRef) ([]handlers.IndexEntry, []clarify.WaitFor, error) {
	entries, err := index.Repo(ctx, rr.Installation, rr.Owner, rr.Repo)
	if err != nil {
		return nil, nil, err
	}
	var edges []clarify.WaitFor
	for _, e := range entries {
		edges = append(edges, e.Waits...)
	}
	return entries, edges, nil
}

func (s *Installations) mark(id int64) sweepMark { return s.resume[id] }

func (s *Installations) setMark(id int64, m sweepMark) {
	if s.resume == nil {
		s.resume = map[int64]sweepMark{}
	}
	s.resume[id] = m
}
