package checks

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// An outsider's pull request.
//
// Anyone can fork a public repository and open a pull request that closes ten issues, then
// push and edit it as often as they like. Checked like a collaborator's, each event reads
// every linked issue's ledger and writes a check run per issue: about 50 pushes spend the
// installation's 500 writes of the hour, for every repository it serves, and the
// clarifications wait behind them. So an outsider's pull request (from a fork, by an author
// without write access: a branch of the repository itself takes write access; see
// Insider) gets one check run for all its links, at most one write an event,
// decided from what this process last knew of each issue (read once, then kept for
// OutsiderTrust, and put right by every run that changes an issue's blocking set).

// OutsiderTrust is how long a remembered verdict of an issue serves an outsider's pull
// request before the issue is read again.
const OutsiderTrust = 10 * time.Minute

// LinksCheckName is the name of the one check run an outsider's pull request gets for all
// the issues it links; it carries the pull request's number, so that another pull request
// of the same commit never overwrites it.
func LinksCheckName(pr int) string { return "Clarify: pull request #" + strconv.Itoa(pr) }

// InsiderByPayload decides who counts as an insider for a pull request where its payload
// alone can: a branch of the repository itself, or the repository's owner, is an
// insider's; a fork by an author whose association cannot carry write access (CONTRIBUTOR,
// NONE, FIRST_TIMER and the like) is an outsider's. known is false for a member or
// collaborator, who may hold only read or triage: insider looks their permission up.
func InsiderByPayload(pr *github.PullRequest) (yes, known bool, reason string) {
	if pr.GetHead().GetRepo().GetFullName() == pr.GetBase().GetRepo().GetFullName() {
		return true, true, "a branch of the repository itself: its author can push here"
	}
	switch a := pr.GetAuthorAssociation(); {
	case a == "OWNER":
		return true, true, "a fork by the repository's owner"
	case MayWrite(a):
		return false, false, "a fork by a " + a
	default:
		return false, true, "a fork by an author associated as " + a
	}
}

// MayWrite reports whether an author_association can go with write access to the
// repository: OWNER, MEMBER (of the owning organisation) and COLLABORATOR can (not all
// of them have it); CONTRIBUTOR, NONE, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR and MANNEQUIN
// cannot. It is what a listing tells of an author with no request.
// https://docs.github.com/en/graphql/reference/enums#commentauthorassociation
func MayWrite(association string) bool {
	switch association {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// Insider reports whether a pull request is an insider's, and why, by the rule commands
// follow (clarify.Actor.CanWrite): its author has write access to the repository. The
// payload decides the common cases with no request (InsiderByPayload). A failed lookup
// fails closed, as an outsider: that costs an insider only one check run for all its links
// instead of one per issue, while an outsider taken for an insider could spend the
// installation's writes on pushes.
func Insider(ctx context.Context, client *github.Client, owner, repo string, pr *github.PullRequest) (bool, string) {
	yes, known, reason := InsiderByPayload(pr)
	if known {
		return yes, reason
	}
	login := pr.GetUser().GetLogin()
	lvl, _, err := client.Repositories.GetPermissionLevel(ctx, owner, repo, login)
	if err != nil {
		return false, reason + " whose permission could not be read (" + err.Error() + ")"
	}
	perm := lvl.GetPermission()
	return clarify.Actor{Permission: perm}.CanWrite(), reason + " with " + perm + " permission"
}

// PutLinks makes an outsider's pull request's one check run read as its linked issues
// say: failing while any is blocked.
func (c *Checks) PutLinks(ctx context.Context, client *github.Client, owner, repo string, pr *github.PullRequest, linked []int) error {
	var blocked []render.BlockedIssue
	var errs []error
	for _, n := range linked {
		blocking, known, err := c.issues.Blocking(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo, Number: n})
		switch {
		case err != nil:
			errs = append(errs, err)
		case !known:
			return nil // an issue being rebuilt: its next run puts the check right
		case len(blocking) > 0:
			blocked = append(blocked, render.BlockedIssue{Issue: n, Blocking: blocking})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	conclusion, title, summary := render.CheckLinks(blocked)
	want := Want{name: LinksCheckName(pr.GetNumber()), conclusion: conclusion, title: title, summary: summary}
	return c.Put(ctx, client, owner, repo, pr.GetHead().GetSHA(), want)
}

// LinksNow is the issues a pull request holds up: those its description closes, and its
// own number while its own conversation holds clarifications.
func (c *Checks) LinksNow(pr *github.PullRequest, owner, repo string) []int {
	linked := LinkedIssues(pr, owner, repo)
	if !slices.Contains(linked, pr.GetNumber()) && c.issues.Holds(owner, repo, pr) {
		linked = append(linked, pr.GetNumber())
	}
	return linked
}
