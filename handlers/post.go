package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// raceWindow is how far back a post looks for a twin posted by another replica; a twin
// older than that would already have been in the snapshot the post was decided on.
const raceWindow = 5 * time.Minute

// postOnce posts one of the app's messages, identified by mark (its hidden marker, or the
// status marker), unless the snapshot already holds it. GitHub has no compare-and-swap,
// so two processes can decide the same post at once: after posting, it looks for a twin
// posted meanwhile. Two replicas both keep the oldest, so the issue ends up with exactly
// one. In bot action only the scheduled run can post beside another run of the issue
// (Mode.sharesIssue), and an event's run does not look (Mode.inIssueGroup): the scheduled run gives
// way to any twin, older or newer.
func (run *issueRun) postOnce(ctx context.Context, mark, body string) (*github.IssueComment, error) {
	for _, c := range run.known() {
		if run.carries(run.ref, c, mark) {
			return c, nil
		}
	}
	// Sealed, the marker is the app's alone: another workflow writing as the same account
	// cannot make the app skip this post, or take its comment for this one.
	body = run.signed(run.ref, run.keys(run.ref).Seal(body, mark))
	c, err := run.create(ctx, mark, body)
	if err != nil {
		return nil, fmt.Errorf("post on %s: %w", run.ref.String(), err)
	}
	run.posts = append(run.posts, c)
	if run.mode.inIssueGroup() {
		return c, nil
	}

	since := c.GetCreatedAt().Time.Add(-raceWindow)
	recent, err := ledger.ListCommentsSince(ctx, run.client, run.ref, since, 1) // a twin is among the first 100 since
	if err != nil {
		// Best effort: the post itself succeeded, and a twin, if any, stays.
		zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Could not look for a twin posted by another replica")
		return c, nil
	}
	kept := c
	for _, o := range recent {
		if o.GetID() != c.GetID() && run.carries(run.ref, o, mark) && (o.GetID() < kept.GetID() || kept == c && run.mode.sharesIssue()) {
			kept = o
		}
	}
	if kept == c {
		return c, nil
	}
	zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Int64("twin", kept.GetID()).Msg("Another run posted the same message; deleting ours")
	if _, err := run.client.Issues.DeleteComment(ctx, run.ref.Owner, run.ref.Repo, c.GetID()); err != nil && !ghtransport.IsStatus(err, http.StatusNotFound) {
		return nil, fmt.Errorf("delete twin comment %d on %s: %w", c.GetID(), run.ref.String(), err)
	}
	run.posts = append(run.posts, kept)
	return kept, nil
}

// postAttempts bounds how many times one message is sent when GitHub's answers are lost.
const postAttempts = 3

// create posts body. A post answered 5xx or cut off may have happened (GitHub has no
// idempotency key), so before sending it again the issue's recent comments are searched
// for its marker: found, it is the post; not found, it never happened.
func (run *issueRun) create(ctx context.Context, mark, body string) (*github.IssueComment, error) {
	logger := zerolog.Ctx(ctx)
	for attempt := 1; ; attempt++ {
		c, _, err := run.client.Issues.CreateComment(ctx, run.ref.Owner, run.ref.Repo, run.ref.Number, &github.IssueComment{Body: &body})
		if err == nil || !outcomeUnknown(ctx, err) || attempt == postAttempts {
			return c, err
		}
		found, lerr := run.findMarked(ctx, mark)
		if lerr != nil {
			// Cannot tell: the run fails, and the next one decides from a fresh snapshot.
			return nil, errors.Join(err, lerr)
		}
		if found != nil {
			logger.Info().Err(err).Int64(LogKeyComment, found.GetID()).Msg("GitHub's answer to a post was lost, but the post is there")
			return found, nil
		}
		logger.Warn().Err(err).Int("attempt", attempt).Msg("A post GitHub did not confirm is not in the issue; sending it again")
	}
}

// findMarked returns the app's comment carrying mark among the issue's recent comments,
// or nil.
func (run *issueRun) findMarked(ctx context.Context, mark string) (*github.IssueComment, error) {
	return run.markedSince(ctx, mark, raceWindow)
}

// markedSince returns the app's comment carrying mark among the issue's comments of the
// last back, or nil.
func (run *issueRun) markedSince(ctx context.Context, mark string, back time.Duration) (*github.IssueComment, error) {
	recent, err := ledger.ListCommentsSince(ctx, run.client, run.ref, run.Now().Add(-back), 0)
	if err != nil {
		return nil, err
	}
	for _, c := range recent {
		if run.carries(run.ref, c, mark) {
			return c, nil
		}
	}
	return nil, nil
}

// outcomeUnknown says whether a write's error leaves open whether GitHub did it: a 5xx, or
// no answer at all. A 4xx, a rate limit, or the run's own deadline says it did not.
func outcomeUnknown(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		return er.Response != nil && er.Response.StatusCode >= 500
	}
	var rl *github.RateLimitError
	var al *github.AbuseRateLimitError
	return !errors.As(err, &rl) && !errors.As(err, &al)
}
