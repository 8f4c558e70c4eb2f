package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/checks"
)

// PullRequest handles pull_request events: a pull request opened, reopened, pushed to, or
// whose description or base changed gets the check runs of the issues it links (see
// handlers/checks), so that one opened while a clarification blocks its issue fails at once.
// Its conversation's comments arrive as issue_comment and are IssueComment's.
// Payload: https://docs.github.com/en/webhooks/webhook-events-and-payloads#pull_request
type PullRequest struct {
	*Base
}

var _ githubapp.EventHandler = (*PullRequest)(nil)

// Handles lists the events this handler takes.
func (h *PullRequest) Handles() []string { return []string{"pull_request"} }

// Validate decodes the payload before the delivery is accepted, so a malformed one gets 400.
func (h *PullRequest) Validate(eventType string, payload []byte) error {
	_, err := decodePullRequest(payload)
	return err
}

func decodePullRequest(payload []byte) (*github.PullRequestEvent, error) {
	var ev github.PullRequestEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	if ev.GetRepo().GetOwner().GetLogin() == "" || ev.GetRepo().GetName() == "" || ev.GetPullRequest().GetNumber() == 0 {
		return nil, errors.New("pull_request payload lacks repository or pull request")
	}
	return &ev, nil
}

// Handle writes the check runs of the issues a pull request links on its head commit.
func (h *PullRequest) Handle(ctx context.Context, eventType, deliveryID string, payload []byte) error {
	ev, err := decodePullRequest(payload)
	if err != nil {
		return githubapp.ValidationError{EventType: eventType, DeliveryID: deliveryID, Cause: err}
	}
	pr := ev.GetPullRequest()
	owner, repo := ev.GetRepo().GetOwner().GetLogin(), ev.GetRepo().GetName()
	if ev.GetAction() != "closed" {
		h.checks.Saw(owner, repo, pr)
	}
	linked, unlinked := h.links(ev)
	in, known, _ := checks.InsiderByPayload(pr)
	if h.idle(ev, len(linked)+len(unlinked), known && !in) {
		return nil
	}

	ctx, logger := githubapp.PrepareRepoContext(ctx, ev.GetInstallation().GetID(), ev.GetRepo())
	logger = logger.With().Int("github_pull_request", pr.GetNumber()).Str(LogKeyAction, ev.GetAction()).
		Str(LogKeySender, ev.GetSender().GetLogin()).Ints("linked_issues", linked).Logger()
	ctx = logger.WithContext(ctx)
	ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	if outsider, err := h.asOutsider(ctx, client, owner, repo, ev, linked); outsider || err != nil {
		return err
	}
	sha := pr.GetHead().GetSHA()
	var errs []error
	for _, n := range linked {
		ref := clarify.IssueRef{Owner: owner, Repo: repo, Number: n}
		if err := h.checkIssue(ctx, client, ref, sha, ev.GetAction() == "reopened"); err != nil {
			errs = append(errs, fmt.Errorf("check of %s on pull request #%d: %w", ref.String(), pr.GetNumber(), err))
		}
	}
	if len(unlinked) > 0 {
		if err := h.unlinked(ctx, client, owner, repo, pr, unlinked); err != nil {
			errs = append(errs, fmt.Errorf("checks of pull request #%d: %w", pr.GetNumber(), err))
		}
	}
	if len(errs) > 0 {
		zerolog.Ctx(ctx).Debug().Int("failed", len(errs)).Msg("Some checks of the pull request were not written")
	}
	return errors.Join(errs...)
}

// asOutsider handles the event of an outsider's pull request (see insider): its one check,
// or nothing on its close, as that check goes with it. It reports whether it was one.
func (h *PullRequest) asOutsider(ctx context.Context, client *github.Client, owner, repo string, ev *github.PullRequestEvent, linked []int) (bool, error) {
	pr := ev.GetPullRequest()
	in, reason := checks.Insider(ctx, client, owner, repo, pr)
	zerolog.Ctx(ctx).Debug().Bool("insider", in).Str("reason", reason).Msg("Decided whose pull request it is")
	switch {
	case in:
		return false, nil
	case ev.GetAction() == "closed":
		return true, nil
	}
	return true, h.checks.PutLinks(ctx, client, owner, repo, pr, linked)
}

// links says which issues a pull_request event makes the pull request link, and which it
// stops linking: an edit of the description or the base can do both, a close only the
// latter. Other actions (a new title, a label) change nothing.
func (h *PullRequest) links(ev *github.PullRequestEvent) (linked, unlinked []int) {
	pr := ev.GetPullRequest()
	owner, repo := ev.GetRepo().GetOwner().GetLogin(), ev.GetRepo().GetName()
	now := h.checks.LinksNow(pr, owner, repo)
	switch ev.GetAction() {
	case "opened", "reopened", "synchronize":
		if pr.GetState() == "open" {
			return now, nil
		}
	case "edited":
		ch := ev.GetChanges()
		if pr.GetState() != "open" || (ch.GetBody() == nil && ch.GetBase() == nil) {
			return nil, nil
		}
		for _, n := range checks.LinkedIssues(before(pr, ch), owner, repo) {
			if !slices.Contains(now, n) {
				unlinked = append(unlinked, n)
			}
		}
		return now, unlinked
	case "closed":
		return nil, now
	}
	return nil, nil
}

// unlinked puts right the checks of issues a pull request no longer links (edited away,
// or the pull request closed). A check run belongs to the commit, not to the pull request:
// while another open pull request with the same head still links the issue, its check is
// decided from the issue as before; only once none does, it passes.
func (h *PullRequest) unlinked(ctx context.Context, client *github.Client, owner, repo string, pr *github.PullRequest, issues []int) error {
	sha := pr.GetHead().GetSHA()
	others, err := h.checks.PullsAt(ctx, client, owner, repo, sha)
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range issues {
		ref := clarify.IssueRef{Owner: owner, Repo: repo, Number: n}
		if slices.ContainsFunc(others, func(o *github.PullRequest) bool { return o.GetNumber() != pr.GetNumber() && checks.Links(o, ref) }) {
			errs = append(errs, h.checkIssue(ctx, client, ref, sha, true))
			continue
		}
		errs = append(errs, h.checks.Put(ctx, client, owner, repo, sha, checks.Unlinked(n)))
	}
	return errors.Join(errs...)
}

// before is the pull request as it was before an edit: its former description and base.
func before(pr *github.PullRequest, ch *github.EditChange) *github.PullRequest {
	old := *pr
	if from := ch.GetBody().GetFrom(); ch.GetBody() != nil {
		old.Body = &from
	}
	if ch.GetBase().GetRef() != nil && pr.Base != nil {
		base := *pr.Base
		from := ch.GetBase().GetRef().GetFrom()
		base.Ref = &from
		old.Base = &base
	}
	return &old
}

// idle reports whether a pull request's event has nothing to do, so that it costs no
// request: checks are off (a workflow's token that may not write them), the pull request
// links no issue (linked counts those it links and stopped linking), or an outsider's pull
// request closed (its one check goes with it).
func (h *PullRequest) idle(ev *github.PullRequestEvent, linked int, outsider bool) bool {
	return !h.mode.writesChecks() || linked == 0 || outsider && ev.GetAction() == "closed"
}

// checkIssue makes the check run of one issue on a pull request's head read as the
// issue's ledger says. It holds the issue's lock, so that a run of the issue changing its
// clarifications (which writes the same check run) is wholly before or after it. With
// settle, a failing check run already on the head is put right too: a pull request that
// was closed when the issue settled was not in the list of open ones then.
func (b *Base) checkIssue(ctx context.Context, client *github.Client, ref clarify.IssueRef, sha string, settle bool) error {
	unlock, err := b.locks.Lock(ctx, ref.String())
	if err != nil {
		return fmt.Errorf("wait for %s: %w", ref.String(), err)
	}
	defer unlock()
	blocking, known, err := checkIssues{b}.blockingNow(ctx, client, ref)
	if err != nil || !known {
		return err
	}
	if len(blocking) == 0 && !settle {
		// Nothing to fail, and a new head carries no check run of ours to put right.
		return nil
	}
	return b.checks.Put(ctx, client, ref.Owner, ref.Repo, sha, checks.WantFor(ref.Number, blocking))
}
