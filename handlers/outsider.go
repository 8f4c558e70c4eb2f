package handlers

import (
	"context"
	"errors"
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
// GitHub does not call an owner, member or collaborator: a branch of the repository itself
// takes write access) gets one check run for all its links, at most one write an event,
// decided from what this process last knew of each issue (read once, then kept for
// outsiderTrust, and put right by every run that changes an issue's blocking set).

// outsiderTrust is how long a remembered verdict of an issue serves an outsider's pull
// request before the issue is read again.
const outsiderTrust = 10 * time.Minute

// LinksCheckName is the name of the one check run an outsider's pull request gets for all
// the issues it links; it carries the pull request's number, so that another pull request
// of the same commit never overwrites it.
func LinksCheckName(pr int) string { return "Clarify: pull request #" + strconv.Itoa(pr) }

// isOutsider reports whether a pull request is an outsider's: from a fork, by an author
// without a standing in the repository. Both come with the payload: no request.
func isOutsider(pr *github.PullRequest) bool {
	if pr.GetHead().GetRepo().GetFullName() == pr.GetBase().GetRepo().GetFullName() {
		return false // a branch of the repository itself: its author can push here
	}
	switch pr.GetAuthorAssociation() {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return false
	}
	return true
}

// linksCheck makes an outsider's pull request's one check run read as its linked issues
// say: failing while any is blocked.
func (b *Base) linksCheck(ctx context.Context, client *github.Client, owner, repo string, pr *github.PullRequest, linked []int) error {
	var blocked []render.BlockedIssue
	var errs []error
	for _, n := range linked {
		blocking, known, err := b.blockingRemembered(ctx, client, issueRef{Owner: owner, Repo: repo, Number: n})
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
	want := checkWant{name: LinksCheckName(pr.GetNumber()), conclusion: conclusion, title: title, summary: summary}
	return b.putCheck(ctx, client, owner, repo, pr.GetHead().GetSHA(), want)
}

// blockingRemembered is blockingNow, answered from memory when this process read or
// changed the issue less than outsiderTrust ago.
func (b *Base) blockingRemembered(ctx context.Context, client *github.Client, ref issueRef) ([]clarify.Clarification, bool, error) {
	if blocking, ok := b.blocked.get(ref.key()); ok {
		return blocking, true, nil
	}
	blocking, known, err := b.blockingNow(ctx, client, ref)
	if err == nil && known {
		b.blocked.put(ref.key(), blocking)
	}
	return blocking, known, err
}
