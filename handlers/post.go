package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"
)

// raceWindow is how far back a post looks for a twin posted by another replica; a twin
// older than that would already have been in the snapshot the post was decided on.
const raceWindow = 5 * time.Minute

// postOnce posts one of the app's messages, identified by mark (its hidden marker, or the
// status marker), unless the snapshot already holds it. GitHub has no compare-and-swap,
// so two replicas can decide the same post at once: after posting, it looks for a twin
// posted meanwhile and, if one is older, deletes its own. Both replicas keep the same
// (oldest) one, so the issue ends up with exactly one.
func (b *Base) postOnce(ctx context.Context, client *github.Client, ref issueRef, snap *snapshot, mark, body string) (*github.IssueComment, error) {
	for _, c := range snap.comments {
		if b.isSelf(c.User) && strings.Contains(c.GetBody(), mark) {
			return c, nil
		}
	}
	c, _, err := client.Issues.CreateComment(ctx, ref.Owner, ref.Repo, ref.Number, &github.IssueComment{Body: &body})
	if err != nil {
		return nil, fmt.Errorf("post on %s: %w", ref.key(), err)
	}
	snap.comments = append(snap.comments, c)

	since := c.GetCreatedAt().Time.Add(-raceWindow)
	recent, _, err := client.Issues.ListComments(ctx, ref.Owner, ref.Repo, ref.Number,
		&github.IssueListCommentsOptions{Since: &since, ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		// Best effort: the post itself succeeded, and a twin, if any, stays.
		zerolog.Ctx(ctx).Warn().Err(err).Int64(LogKeyComment, c.GetID()).Msg("Could not look for a twin posted by another replica")
		return c, nil
	}
	oldest := c
	for _, o := range recent {
		if o.GetID() < oldest.GetID() && b.isSelf(o.User) && strings.Contains(o.GetBody(), mark) {
			oldest = o
		}
	}
	if oldest == c {
		return c, nil
	}
	zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, c.GetID()).Int64("twin", oldest.GetID()).Msg("Another replica posted the same message; deleting ours")
	if _, err := client.Issues.DeleteComment(ctx, ref.Owner, ref.Repo, c.GetID()); err != nil && !isStatus(err, http.StatusNotFound) {
		return nil, fmt.Errorf("delete twin comment %d on %s: %w", c.GetID(), ref.key(), err)
	}
	snap.comments = append(snap.comments, oldest)
	return oldest, nil
}
