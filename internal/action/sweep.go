package action

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

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// A scheduled run (schedule or workflow_dispatch) is the repository's sweep. Nothing is
// kept between runs, so it reads what it needs each time, at a bounded cost:
//
//   - every issue carrying the active label (open or closed: a close no run applied still
//     settles here), one listing request per 100; each is run, which fires its passed
//     deadlines and applies any comment past its ledger's cursor;
//   - the repository's comments of the last scanWindow, at most scanPages requests: an
//     issue with a command that no run shows signs of having applied (no comment or edit
//     of the app's in the issue after it, one carrying its markers: other workflows share
//     its account) is run too, label or not: an ask whose run was cancelled as a pending
//     run of its concurrency group left no label behind.
//
// When the budget cannot cover every issue, where the visits start turns with the run's
// number, so that every issue gets its turn; the run then fails, saying how many are left.
const (
	scanWindow = 24 * time.Hour
	scanPages  = 3
	// appliedSlack is how much later than a command the app's last write in its issue must
	// be to show that a run saw the command: a run lists the comments a little before it
	// writes, so a write seconds after a command may come from a run that did not see it.
	appliedSlack = time.Minute
	// issueReserve is the requests kept back for one more issue's run: a run that began
	// and then hit the budget half-way would be wasted.
	issueReserve = 12
)

func (r *runner) sweep(ctx context.Context, owner, repo string) Outcome {
	out := Outcome{What: fmt.Sprintf("%s sweep of %s/%s", r.env.EventName, owner, repo)}
	ctx = ghtransport.WithInstallation(r.ctx(ctx), 0)
	client, err := r.clients.NewInstallationClient(0)
	if err == nil {
		var issues []*github.Issue
		if issues, err = r.toVisit(ctx, client, owner, repo); err == nil {
			idx := r.sweepIndex(ctx, client, owner, repo)
			issues = r.changed(idx, issues, &out)
			err = r.visit(ctx, client, owner, repo, issues, idx, &out)
			if serr := r.base.SaveSweepIndex(ctx, client, idx); serr != nil {
				// The next run reads the issues this one could not vouch for; nothing else.
				r.logger.Warn().Err(serr).Msg("The sweep index was not saved; the next scheduled run reads every issue")
			}
		}
		r.base.FlushDashboards(ctx)
	}
	out.Err = err
	out = r.finish(out)
	switch {
	case out.Err == nil && out.Issues == 0 && out.Unchanged > 0:
		out.Note = fmt.Sprintf("Nothing to do: the %d issues with open clarifications are unchanged since the last scheduled run, and none is due.", out.Unchanged)
	case out.Err == nil && out.Issues == 0:
		out.Note = "Nothing to do: no issue has an open clarification or a command no run applied."
	}
	return out
}

// toVisit lists the issues the run visits, in number order turned by the run number.
func (r *runner) toVisit(ctx context.Context, client *github.Client, owner, repo string) ([]*github.Issue, error) {
	cfg, err := r.base.Configs.Load(ctx, client, owner, repo)
	if err != nil {
		return nil, fmt.Errorf("load config of %s/%s: %w", owner, repo, err)
	}
	issues, err := ghtransport.AllPages(func(page int) ([]*github.Issue, *github.Response, error) {
		return client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{State: "all",
			Labels: []string{cfg.Labels.Active}, ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, fmt.Errorf("list the issues labelled %s: %w", cfg.Labels.Active, err)
	}
	seen := map[int]bool{}
	for _, is := range issues {
		seen[is.GetNumber()] = true
	}
	unrun, err := r.unapplied(ctx, client, owner, repo, seen)
	if err != nil {
		return nil, err
	}
	for _, n := range unrun {
		is, _, err := client.Issues.Get(ctx, owner, repo, n)
		if err != nil {
			return nil, fmt.Errorf("read %s/%s#%d: %w", owner, repo, n, err)
		}
		issues = append(issues, is)
	}
	slices.SortFunc(issues, func(a, b *github.Issue) int { return cmp.Compare(a.GetNumber(), b.GetNumber()) })
	if len(issues) > 0 {
		turn := r.env.RunNumber % len(issues)
		issues = append(issues[turn:], issues[:turn]...)
	}
	return issues, nil
}

// unapplied lists the issues, beside those in seen, with a command of the last scanWindow
// after which the app wrote nothing in the issue.
func (r *runner) unapplied(ctx context.Context, client *github.Client, owner, repo string, seen map[int]bool) ([]int, error) {
	since := r.base.Now().Add(-scanWindow)
	comments, err := ghtransport.SomePages(scanPages, func(page int) ([]*github.IssueComment, *github.Response, error) {
		return client.Issues.ListComments(ctx, owner, repo, 0, &github.IssueListCommentsOptions{
			Sort: github.String("created"), Direction: github.String("desc"), Since: &since,
			ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return nil, fmt.Errorf("list the comments of %s/%s since %s: %w", owner, repo, since.Format(time.RFC3339), err)
	}
	lastCmd, lastOurs := map[int]time.Time{}, map[int]time.Time{}
	for _, c := range comments {
		n := issueNumber(c.GetIssueURL())
		switch {
		case n == 0 || seen[n]:
		case r.base.IsSelf(c.GetUser()):
			// Another workflow's comment (the same github-actions[bot]) shows nothing;
			// nor, being the app's account, is it input.
			if render.IsOwnComment(c.GetBody()) {
				lastOurs[n] = latest(lastOurs[n], c.GetUpdatedAt().Time)
			}
		case handlers.HasCommand(c.GetBody()):
			lastCmd[n] = latest(lastCmd[n], c.GetCreatedAt().Time)
		}
	}
	var out []int
	for n, at := range lastCmd {
		if !lastOurs[n].After(at.Add(appliedSlack)) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// sweepIndex is the repository's sweep index (handlers.SweepIndex); one that cannot be
// read is empty, and then every issue is read, as without it.
func (r *runner) sweepIndex(ctx context.Context, client *github.Client, owner, repo string) *handlers.SweepIndex {
	idx, err := r.base.LoadSweepIndex(ctx, client, owner, repo)
	if err != nil {
		r.logger.Warn().Err(err).Msg("The sweep index could not be read; reading every issue")
		return &handlers.SweepIndex{}
	}
	return idx
}

// changed leaves out the issues the index knows unchanged and not yet due.
func (r *runner) changed(idx *handlers.SweepIndex, issues []*github.Issue, out *Outcome) []*github.Issue {
	now := r.base.Now()
	return slices.DeleteFunc(issues, func(is *github.Issue) bool {
		if idx.Unchanged(is, now) {
			out.Unchanged++
			return true
		}
		return false
	})
}

// visit runs each issue while the budget lasts; one that fails does not hold up the rest.
func (r *runner) visit(ctx context.Context, client *github.Client, owner, repo string, issues []*github.Issue, idx *handlers.SweepIndex, out *Outcome) error {
	var errs []error
	for i, is := range issues {
		if r.count.budget > 0 && r.count.all.Load()+issueReserve > r.count.budget {
			out.Deferred = len(issues) - i
			r.logger.Warn().Int("left", out.Deferred).Msg("Request budget spent; the next scheduled run takes the rest")
			break
		}
		out.Issues++
		var due time.Time
		err := retryMoved(ctx, func() (err error) {
			due, err = r.base.RunIssue(ctx, client, owner, repo, is)
			return err
		})
		if err != nil {
			r.logger.Error().Err(err).Int(handlers.LogKeyIssue, is.GetNumber()).Msg("Run of an issue failed")
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
