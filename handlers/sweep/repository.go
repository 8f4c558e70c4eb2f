package sweep

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/handlers/checks"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/wire"
)

// A scheduled run (schedule or workflow_dispatch) sweeps its repository. It keeps nothing
// between runs but its sweep index (handlers.SweepIndex), so each run reads what it needs,
// at a bounded cost.
//
// What it visits, in this order:
//  1. Issues whose deadline has passed (stale pings, timeouts, settling from precedent).
//  2. Other issues with the active label that the index cannot vouch for (open or closed:
//     a close no run applied settles here). One listing request per 100 issues.
//  3. Issues with a command no run applied, found in the repository's comments of the
//     last scanWindow (at most scanPages requests), label or not.
//
// A command counts as unapplied when:
//   - no comment or edit of the app's (with its sealed markers) came after it: other
//     workflows and their agents share the app's account;
//   - no run in the index read the issue after it;
//   - it is older than ownRunWait, unless no run of its own is coming.
//
// Why the scan:
//   - an ask whose run was cancelled as a pending run of its concurrency group left no label;
//   - an agent's comment made with GITHUB_TOKEN started no run at all;
//   - the mirror of a dispatch counts as its command, for its run may have failed.
//
// Only commands by someone who may have standing count (mayHaveStanding, from the
// listing alone): anyone can comment on a public repository, and a drive-by's 300 asks
// must not make every run read 300 issues.
//
// The budget:
//   - within each group, where the visits start turns with the run's number, so every
//     issue gets its turn;
//   - the issues run are in the index the run saves, so the next run takes the rest;
//   - a run the budget cut short fails, saying how many are left.
//
// The listing also gives Clarify's colour and description to a label of Clarify's that
// GitHub made grey on first use.
const (
	scanWindow = 24 * time.Hour
	// scanPages bounds the scan at 1,000 comments, newest first: a flood of drive-by
	// comments (one account may post about 500 an hour) costs a run ten requests at most,
	// and does not push a collaborator's ask of the hours before it out of reach.
	scanPages = 10
	// appliedSlack is how much later than a command the app's last write in its issue must
	// be to show that a run saw the command: a run lists the comments a little before it
	// writes, so a write seconds after a command may come from a run that did not see it.
	appliedSlack = time.Minute
	// issueReserve is the requests kept back for one more issue's run: a run that began
	// and then hit the budget half-way would be wasted.
	issueReserve = 12
	// ownRunWait is how long a command that starts a run of its own is left to that run:
	// a run GitHub queued starts late, and the scheduled run taking the command meanwhile
	// would post beside it. A command by github-actions[bot] (an agent's, made with
	// GITHUB_TOKEN) starts no run, so it is taken at once.
	ownRunWait = 5 * time.Minute
	// saveReserve is the requests kept back for the run's end: the sweep index's write,
	// without which the next run would take the same issues again rather than the rest,
	// and a dashboard's.
	saveReserve = 3
)

// Repository is a workflow's scheduled run (schedule or workflow_dispatch): the sweep of
// its one repository, with the workflow's client.
type Repository struct {
	*handlers.Base
	// RunNumber turns where each group's visits start, so that every issue gets its turn.
	RunNumber int
	// Spent counts the requests the run made so far; Budget bounds them (zero: no bound).
	Spent  func() int64
	Budget int64
}

// RepoStats says what a repository's sweep did.
type RepoStats struct {
	// Issues counts the issues visited; Deferred those the budget left; Unchanged those
	// left unread, as the sweep index knew them, with nothing due.
	Issues, Deferred, Unchanged int
}

// toRun is an issue a scheduled run means to run: listed, or known only by its number from
// a command no run applied, and read when its turn comes.
type toRun struct {
	number int
	issue  *github.Issue
}

// Run runs the repository's issues that call for it, and saves the sweep index.
func (r *Repository) Run(ctx context.Context, client *github.Client, owner, repo string) (RepoStats, error) {
	var out RepoStats
	err := r.sweep(ctx, client, owner, repo, &out)
	return out, err
}

func (r *Repository) sweep(ctx context.Context, client *github.Client, owner, repo string, out *RepoStats) error {
	cfg, err := r.Configs().Load(ctx, client, owner, repo)
	if err != nil {
		return fmt.Errorf("load config of %s/%s: %w", owner, repo, err)
	}
	idx := r.sweepIndex(ctx, client, owner, repo)
	issues, err := r.toVisit(ctx, client, cfg, owner, repo, idx, out)
	if err != nil {
		return err
	}
	err = r.visit(ctx, client, owner, repo, issues, idx, out)
	if serr := r.SaveSweepIndex(ctx, client, idx); serr != nil {
		// The next run reads the issues this one could not vouch for; nothing else.
		zerolog.Ctx(ctx).Warn().Err(serr).Msg("The sweep index was not saved; the next scheduled run reads every issue")
	}
	return err
}

// toVisit lists the issues the run visits, in the order the budget should serve them:
// those overdue, the other labelled ones the index cannot vouch for, those with a command
// no run applied; each group in number order turned by the run number.
func (r *Repository) toVisit(ctx context.Context, client *github.Client, cfg handlers.RepoConfig, owner, repo string,
	idx *handlers.SweepIndex, out *RepoStats) ([]toRun, error) {
	issues, err := ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all",
			Labels: []string{cfg.Labels.Active}, ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, fmt.Errorf("list the issues labelled %s: %w", cfg.Labels.Active, err)
	}
	r.ColourLabels(ctx, client, owner, repo, cfg.Labels, issues)
	now := r.Now()
	seen := map[int]bool{}
	var due, changed, unrun []toRun
	for _, is := range issues {
		n := is.GetNumber()
		seen[n] = true
		switch {
		case idx.Unchanged(is, now):
			out.Unchanged++
		case is.GetState() == "closed" || idx.Overdue(n, now):
			due = append(due, toRun{number: n, issue: is})
		default:
			changed = append(changed, toRun{number: n, issue: is})
		}
	}
	nums, err := r.unapplied(ctx, client, owner, repo, seen, idx, cfg.Policy)
	if err != nil {
		return nil, err
	}
	for _, n := range nums {
		unrun = append(unrun, toRun{number: n})
	}
	return slices.Concat(r.turned(due), r.turned(changed), r.turned(unrun)), nil
}

// turned sorts issues by number and turns them by the run number.
func (r *Repository) turned(issues []toRun) []toRun {
	slices.SortFunc(issues, func(a, b toRun) int { return cmp.Compare(a.number, b.number) })
	if len(issues) > 0 {
		turn := r.RunNumber % len(issues)
		issues = append(issues[turn:], issues[:turn]...)
	}
	return issues
}

// unapplied lists the issues, beside those in seen, with a command of the last scanWindow
// by someone who may have standing, after which the app wrote nothing in the issue and no
// run in the index read it.
func (r *Repository) unapplied(ctx context.Context, client *github.Client, owner, repo string, seen map[int]bool,
	idx *handlers.SweepIndex, p clarify.Policy) ([]int, error) {
	since := r.Now().Add(-scanWindow)
	comments, err := ghtransport.SomePages(scanPages, func(page int) ([]*github.IssueComment, *github.Response, error) {
		return client.Issues.ListComments(ctx, owner, repo, 0, &github.IssueListCommentsOptions{
			Sort: github.String("created"), Direction: github.String("desc"), Since: &since,
			ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, fmt.Errorf("list the comments of %s/%s since %s: %w", owner, repo, since.Format(time.RFC3339), err)
	}
	lastCmd, lastOurs, coming := map[int]time.Time{}, map[int]time.Time{}, map[int]bool{}
	for _, c := range comments {
		n := issueNumber(c.GetIssueURL())
		switch {
		case n == 0 || seen[n]:
		case r.Mirrored(owner, repo, n, c):
			// A dispatch's command, which the workflow's mirror job writes before the
			// issue's job runs: that job is coming unless it failed or never started.
			lastCmd[n] = latest(lastCmd[n], c.GetCreatedAt().Time)
			coming[n] = coming[n] || c.GetCreatedAt().After(r.Now().Add(-ownRunWait))
		case r.OwnComment(owner, repo, n, c):
			// Only a comment with the app's sealed markers: another workflow's, by the same
			// github-actions[bot], shows nothing, and is input like anyone's.
			lastOurs[n] = latest(lastOurs[n], c.GetUpdatedAt().Time)
		case clarify.HasCommand(c.GetBody()) && mayHaveStanding(c, p):
			lastCmd[n] = latest(lastCmd[n], c.GetCreatedAt().Time)
			// Its own run, still to come, applies every comment past the ledger's cursor.
			coming[n] = coming[n] || r.ownRunComing(c)
		}
	}
	var out []int
	for n, at := range lastCmd {
		if !coming[n] && !lastOurs[n].After(at.Add(appliedSlack)) && !idx.RanAfter(n, at) {
			out = append(out, n)
		}
	}
	return out, nil
}

// mayHaveStanding reports whether a listed comment's author may be someone whose command
// the fold takes, as far as the listing tells with no request: an account that may have
// write access (its author_association), a bot (an agent; a bot comments only where its app
// is installed), or a login the repository's roles list. Anyone else is a drive-by in an
// issue where nothing of theirs is open (the issues with something open carry the active
// label and are run anyway), so a scheduled run does not read the issue for their command.
func mayHaveStanding(c *github.IssueComment, p clarify.Policy) bool {
	u := c.GetUser()
	return checks.MayWrite(c.GetAuthorAssociation()) || u.GetType() == "Bot" || p.RoleOf(u.GetLogin()) != ""
}

// ownRunComing says whether a command may still get a run of its own (ownRunWait).
func (r *Repository) ownRunComing(c *github.IssueComment) bool {
	return !strings.EqualFold(c.GetUser().GetLogin(), ledger.BotLoginOf(wire.ActionsSlug)) &&
		c.GetCreatedAt().After(r.Now().Add(-ownRunWait))
}

// sweepIndex is the repository's sweep index (handlers.SweepIndex); one that cannot be
// read is empty, and then every issue is read, as without it.
func (r *Repository) sweepIndex(ctx context.Context, client *github.Client, owner, repo string) *handlers.SweepIndex {
	idx, err := r.LoadSweepIndex(ctx, client, owner, repo)
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Msg("The sweep index could not be read; reading every issue")
		return &handlers.SweepIndex{}
	}
	return idx
}

// visit runs each issue while the budget lasts, reading first those known only by number;
// one that fails does not hold up the rest.
func (r *Repository) visit(ctx context.Context, client *github.Client, owner, repo string, issues []toRun, idx *handlers.SweepIndex, out *RepoStats) error {
	var errs []error
	for i, v := range issues {
		if r.Budget > 0 && r.Spent()+issueReserve+saveReserve > r.Budget {
			out.Deferred = len(issues) - i
			zerolog.Ctx(ctx).Warn().Int("left", out.Deferred).Msg("Request budget spent; the next scheduled run takes the rest")
			break
		}
		is := v.issue
		if is == nil {
			var err error
			if is, _, err = client.Issues.Get(ctx, owner, repo, v.number); err != nil {
				errs = append(errs, fmt.Errorf("read %s/%s#%d: %w", owner, repo, v.number, err))
				continue
			}
			if idx.Unchanged(is, r.Now()) {
				out.Unchanged++
				continue
			}
		}
		out.Issues++
		var due time.Time
		err := handlers.RunAgain(ctx, func() (err error) {
			due, err = r.RunIssue(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo, Number: is.GetNumber()}, is)
			return err
		})
		if err != nil {
			zerolog.Ctx(ctx).Error().Err(err).Int(handlers.LogKeyIssue, is.GetNumber()).Msg("Run of an issue failed")
			errs = append(errs, fmt.Errorf("%s/%s#%d: %w", owner, repo, is.GetNumber(), err))
			continue
		}
		idx.Ran(is, due)
	}
	return errors.Join(errs...)
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// issueNumber is the number at the end of a comment's issue_url.
func issueNumber(u string) int {
	n, _ := strconv.Atoi(u[strings.LastIndex(u, "/")+1:])
	return n
}
