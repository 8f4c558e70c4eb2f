package checks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// Check runs on the pull requests that link an issue.
//
// While an issue holds an open blocking clarification, every open pull request that links
// it (a closing keyword in its description, as GitHub links them) carries a failing check
// run named after the issue (CheckName), which names the clarifications; once none is
// left, the same check run passes. A pull request's own conversation takes commands like
// an issue's, so its own blocking clarifications fail its own check the same way.
//
// Why these choices:
//   - One check run per linked issue, not one per pull request: each follows its issue
//     alone, so a change in one issue never has to read the others, and two issues
//     changing at once cannot overwrite each other's verdict. (Branch protection cannot
//     require a name that carries a number; the failing check still shows on the pull
//     request and in its merge box.)
//   - Linked pull requests are found by listing the repository's open pull requests and
//     reading their descriptions: one request per 100 open pull requests, whatever the
//     issue's length, and it carries each head commit. The issue's timeline would cost a
//     page per 100 events of the issue, and its cross-references include mere mentions,
//     whose descriptions would have to be read anyway. REST has no "linked pull requests".
//   - Cost: the checks are touched only when the set of an issue's open blocking
//     clarifications changes (one opens, one is settled, the issue closes) and on
//     pull_request events, never on an answer, a ping or any other event. A lone process
//     keeps what one listing and the pull_request events since say is linked
//     (pulllinks.go), so a lifecycle in an issue that no pull request links lists them
//     at most once per repository and quarter of an hour; replicas and bot action's runs,
//     which each see only part of the events, list when the set changes.
//   - The sync runs before the ledger is saved: a run that fails there is run again from
//     the unsaved ledger and sees the change again. A 403 (an installation that has not
//     yet accepted the checks or pull requests permission), 404 or 422 is logged and
//     skipped: checks are a courtesy that must never stop the ledger.

// CheckName is the name of the check run that issue puts on the pull requests linking it.
func CheckName(issue int) string { return "Clarify: #" + strconv.Itoa(issue) }

// maxLinked bounds the issues one pull request's description is taken to link.
const maxLinked = 10

// Checks writes the check runs of the pull requests that link an issue.
type Checks struct {
	appSlug string
	now     func() time.Time
	issues  IssueView
	// seesEveryEvent: this process handles every pull_request event, so links can
	// spare a listing (pulllinks.go).
	seesEveryEvent bool
	links          pullLinks
}

// IssueView is what the checks read of an issue, from its ledger or the handlers' caches.
type IssueView interface {
	// Blocking is an issue's open blocking clarifications; known is false while its
	// ledger cannot be trusted (it is being rebuilt).
	Blocking(ctx context.Context, client *github.Client, ref clarify.IssueRef) (blocking []clarify.Clarification, known bool, err error)
	// Holds reports whether a pull request's own conversation may hold clarifications
	// (it carries one of the app's labels, or one is open in it).
	Holds(owner, repo string, pr *github.PullRequest) bool
}

// New returns the checks of the app appSlug. seesEveryEvent says this process handles
// every pull_request event of its installations (a lone server); remember bounds the
// repositories whose links it keeps.
func New(appSlug string, now func() time.Time, issues IssueView, seesEveryEvent bool, remember int) *Checks {
	return &Checks{appSlug: appSlug, now: now, issues: issues, seesEveryEvent: seesEveryEvent, links: pullLinks{max: remember}}
}

// BlockingOpen lists l's open blocking clarifications, in ledger order.
func BlockingOpen(l clarify.Ledger) []clarify.Clarification {
	var out []clarify.Clarification
	for _, c := range l.Clarifications {
		if c.Blocking && c.Status.Open() {
			out = append(out, c)
		}
	}
	return out
}

// Unlinked is the check run of an issue on a pull request that no longer links it.
func Unlinked(issue int) Want {
	conclusion, title, summary := render.CheckUnlinked(issue)
	return Want{name: CheckName(issue), conclusion: conclusion, title: title, summary: summary}
}

// Changed reports whether a run changed an issue's open blocking clarifications, which
// its checks follow.
func Changed(before, after clarify.Ledger) bool {
	return !slices.Equal(blockingIDs(before), blockingIDs(after))
}

// blockingIDs is the ids of l's open blocking clarifications.
func blockingIDs(l clarify.Ledger) []string {
	var ids []string
	for _, c := range BlockingOpen(l) {
		ids = append(ids, c.ID)
	}
	return ids
}

// Want is a check run as it should be.
type Want struct {
	name, conclusion, title, summary string
}

// WantFor is the check run of issue while blocking are its open blocking clarifications.
func WantFor(issue int, blocking []clarify.Clarification) Want {
	conclusion, title, summary := render.Check(issue, blocking)
	return Want{name: CheckName(issue), conclusion: conclusion, title: title, summary: summary}
}

// Sync brings the checks of the pull requests linking an issue in line with its open
// blocking clarifications. A deferred write is an error here (ghtransport.ErrDeferred), so
// that the caller owes it.
func (c *Checks) Sync(ctx context.Context, client *github.Client, ref clarify.IssueRef, blocking []clarify.Clarification) error {
	logger := zerolog.Ctx(ctx)
	if c.noPullLinks(ref) {
		logger.Debug().Msg("No open pull request links the issue; its checks need no listing")
		return nil
	}
	want := WantFor(ref.Number, blocking)
	pulls, err := c.openPulls(ctx, client, ref)
	if courtesyRefused(err) {
		logger.Warn().Err(err).Msg("Cannot list pull requests (has the installation accepted the pull requests permission?); their checks are left as they are")
		return nil
	}
	if err != nil {
		return fmt.Errorf("list open pull requests of %s/%s: %w", ref.Owner, ref.Repo, err)
	}
	for _, pr := range pulls {
		if !Links(pr, ref) {
			continue
		}
		if in, _ := Insider(ctx, client, ref.Owner, ref.Repo, pr); !in {
			if err := c.PutLinks(ctx, client, ref.Owner, ref.Repo, pr, c.LinksNow(pr, ref.Owner, ref.Repo)); err != nil {
				return fmt.Errorf("check of pull request #%d: %w", pr.GetNumber(), err)
			}
			continue
		}
		if err := c.write(ctx, client, ref.Owner, ref.Repo, pr.GetHead().GetSHA(), want); err != nil {
			return fmt.Errorf("check of #%d on pull request #%d: %w", ref.Number, pr.GetNumber(), err)
		}
	}
	return nil
}

// Links reports whether an open pull request holds up an issue's check: it closes the
// issue, or is the issue (its own conversation's clarifications).
func Links(pr *github.PullRequest, ref clarify.IssueRef) bool {
	return pr.GetNumber() == ref.Number || slices.Contains(LinkedIssues(pr, ref.Owner, ref.Repo), ref.Number)
}

// PullsAt lists the open pull requests whose head is the commit sha. Check runs belong
// to a commit, so every one of them has a say in its checks. GitHub's "pull requests of a
// commit" (GET /repos/{owner}/{repo}/commits/{sha}/pulls) answers nothing for a commit that
// is only in a fork (github.com/google/go-github/issues/2241, and the fixes of
// quarkusio/pt.quarkus.io#389 and nerva-project/nerva#79), and the list's head filter takes
// a branch, not a commit: so the open ones are listed (openPulls) and filtered.
func (c *Checks) PullsAt(ctx context.Context, client *github.Client, owner, repo, sha string) ([]*github.PullRequest, error) {
	pulls, err := c.openPulls(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo})
	if err != nil {
		return nil, fmt.Errorf("list open pull requests of %s/%s: %w", owner, repo, err)
	}
	// A copy: the listing may be shared with other runs (openPulls).
	return slices.DeleteFunc(slices.Clone(pulls), func(pr *github.PullRequest) bool { return pr.GetHead().GetSHA() != sha }), nil
}

// Put is write for a pull request's own event: a write deferred near GitHub's
// limits is logged and left to the pull request's or the issue's next event.
func (c *Checks) Put(ctx context.Context, client *github.Client, owner, repo, sha string, want Want) error {
	err := c.write(ctx, client, owner, repo, sha, want)
	if errors.Is(err, ghtransport.ErrDeferred) {
		zerolog.Ctx(ctx).Warn().Str("check", want.name).Str("head_sha", sha).
			Msg("Check run not written: the installation's writes are near GitHub's limits, and clarifications go first; the next event of the pull request or issue writes it")
		return nil
	}
	return err
}

// write makes the app's check run of that name on the commit read as wanted: the one
// there is edited when it reads otherwise, and a failing one is created when there is
// none. A passing one is never created where none failed: it would tell nobody anything
// and cost a write on every push. A write deferred near GitHub's limits returns
// ghtransport.ErrDeferred.
func (c *Checks) write(ctx context.Context, client *github.Client, owner, repo, sha string, want Want) error {
	logger := zerolog.Ctx(ctx).With().Str("check", want.name).Str("head_sha", sha).Logger()
	if sha == "" {
		return nil
	}
	res, _, err := client.Checks.ListCheckRunsForRef(ctx, owner, repo, sha,
		&github.ListCheckRunsOptions{CheckName: &want.name, Filter: github.String("latest")})
	if courtesyRefused(err) {
		logger.Warn().Err(err).Msg("Cannot read check runs (has the installation accepted the checks permission?); left as they are")
		return nil
	}
	if err != nil {
		return err
	}
	ours := c.newestOurs(res.CheckRuns)
	output := &github.CheckRunOutput{Title: &want.title, Summary: &want.summary}
	done := &github.Timestamp{Time: c.now().UTC().Truncate(time.Second)}
	// The lowest of the app's writes: near GitHub's limits it is deferred, not queued
	// ahead of a clarification's (ghtransport.WithLowPriority).
	low := ghtransport.WithLowPriority(ctx)
	switch {
	case ours != nil && want.readBy(ours):
		return nil
	case ours != nil:
		_, _, err = client.Checks.UpdateCheckRun(low, owner, repo, ours.GetID(), github.UpdateCheckRunOptions{Name: want.name,
			Status: github.String("completed"), Conclusion: &want.conclusion, CompletedAt: done, Output: output})
	case want.conclusion == render.CheckFailure:
		_, _, err = client.Checks.CreateCheckRun(low, owner, repo, github.CreateCheckRunOptions{Name: want.name, HeadSHA: sha,
			Status: github.String("completed"), Conclusion: &want.conclusion, CompletedAt: done, Output: output})
	default:
		return nil
	}
	switch {
	case courtesyRefused(err):
		logger.Warn().Err(err).Msg("Check run not written (has the installation accepted the checks permission?)")
		return nil
	case err == nil:
		logger.Info().Str("conclusion", want.conclusion).Msg("Check run written")
	}
	return err
}

// newestOurs is the newest of the check runs that the app wrote, nil when none.
func (c *Checks) newestOurs(runs []*github.CheckRun) *github.CheckRun {
	var ours *github.CheckRun
	for _, r := range runs {
		if strings.EqualFold(r.GetApp().GetSlug(), c.appSlug) && (ours == nil || r.GetID() > ours.GetID()) {
			ours = r
		}
	}
	return ours
}

// readBy reports whether a check run already reads as wanted: then nothing is written.
func (want Want) readBy(r *github.CheckRun) bool {
	return r.GetStatus() == "completed" && r.GetConclusion() == want.conclusion &&
		r.GetOutput().GetTitle() == want.title && r.GetOutput().GetSummary() == want.summary
}

// courtesyRefused reports whether GitHub refused a request of the checks for good: no
// permission (an installation that has not accepted a new one yet), gone, or not
// acceptable. Trying again would not help, and the ledger must not wait on it.
func courtesyRefused(err error) bool {
	return ghtransport.IsStatus(err, http.StatusForbidden) || ghtransport.IsStatus(err, http.StatusNotFound) || ghtransport.IsStatus(err, http.StatusUnprocessableEntity)
}

// closingRef matches GitHub's closing keywords before an issue of a repository:
// "Fixes #42", "closes: octo/widgets#42", "Resolved https://github.com/octo/widgets/issues/42".
// https://docs.github.com/issues/tracking-your-work-with-issues/linking-a-pull-request-to-an-issue
var closingRef = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+` +
	`(?:#(\d+)|([\w.-]+)/([\w.-]+)#(\d+)|https?://[^\s/]+/([\w.-]+)/([\w.-]+)/issues/(\d+))\b`)

// LinkedIssues lists the issues of owner/repo that a pull request closes, as GitHub reads
// its description: only a pull request into the default branch closes issues.
func LinkedIssues(pr *github.PullRequest, owner, repo string) []int {
	if def := pr.GetBase().GetRepo().GetDefaultBranch(); def != "" && pr.GetBase().GetRef() != def {
		return nil
	}
	return closingRefs(pr.GetBody(), owner, repo)
}

// closingRefs lists the issues of owner/repo that text closes with a keyword, each once,
// in order, at most maxLinked.
func closingRefs(text, owner, repo string) []int {
	var out []int
	same := func(o, r string) bool { return strings.EqualFold(o, owner) && strings.EqualFold(r, repo) }
	for _, m := range closingRef.FindAllStringSubmatch(text, -1) {
		var num string
		switch {
		case m[1] != "":
			num = m[1]
		case m[4] != "" && same(m[2], m[3]):
			num = m[4]
		case m[7] != "" && same(m[5], m[6]):
			num = m[7]
		default:
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > 0 && !slices.Contains(out, n) && len(out) < maxLinked {
			out = append(out, n)
		}
	}
	return out
}
