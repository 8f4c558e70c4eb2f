package relations

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// LogKeyDecisionIssue is the log key of a decision issue's number.
const LogKeyDecisionIssue = "decision_issue"

// Env is what Keep needs of the run.
type Env struct {
	// Work is the issue whose clarifications the decision issues stand for.
	Work clarify.IssueRef
	// Bot is the app's login: a decision issue is one it opened.
	Bot string
	// Seal seals a body's marker under the work issue's key, and Sealed says whether a
	// body carries it so sealed: from an account others may write as (a workflow's), only
	// a sealed body is the app's.
	Seal   func(body, mark string) string
	Sealed func(body, mark string) bool
	// TakenOff is a decision issue whose edge GitHub says someone else took off (0: none):
	// where it is off, the person's word stands, and the edge is not put back.
	TakenOff int
	// RepliesHere says a reply in a decision issue is taken to the work issue as the
	// replier's comment there, so the decision issue invites answers (handlers' mode).
	RepliesHere bool
}

// Keep brings the decision issues of the work issue in line with its folded ledger l, and
// records in l what it did, for the save: a settled clarification's edge comes off and its
// decision issue closes with the decision, whatever the repository's relations: says now;
// with kind set (clarify.RelationBlockedBy or RelationSubIssue), each open blocking
// clarification without one gets its decision issue and edge. An error leaves l unsaved,
// and the run that tries again finds what this one did.
func Keep(ctx context.Context, client *github.Client, env Env, kind string, l *clarify.Ledger) error {
	var kept []clarify.Relation
	for _, r := range l.Relations {
		if c, ok := l.Find(r.Clarification); ok && c.Status.Open() {
			if r.Issue == env.TakenOff && r.Linked {
				on, err := stillOn(ctx, client, env, r)
				if err != nil {
					return err
				}
				r.Linked = on
			}
			kept = append(kept, r)
			continue
		}
		if err := settle(ctx, client, env, r, *l); err != nil {
			return err
		}
	}
	l.Relations = kept
	if kind == "" {
		return nil
	}
	for _, c := range l.Clarifications {
		if !c.Blocking || !c.Status.Open() || l.RelationOf(c.ID) >= 0 {
			continue
		}
		r, err := open(ctx, client, env, kind, c)
		if err != nil {
			return err
		}
		l.Relations = append(l.Relations, r)
	}
	return nil
}

// stillOn says whether the edge to r's decision issue is on, as GitHub lists it now: an
// event saying it came off may be older than one that put it back.
func stillOn(ctx context.Context, client *github.Client, env Env, r clarify.Relation) (bool, error) {
	e := edgesOf(r.Kind)
	tied, err := e.listAll(ctx, client, env.Work)
	if err != nil {
		return false, fmt.Errorf("list %s of %s: %w", e.what, env.Work.String(), err)
	}
	for _, is := range tied {
		if is.GetID() == r.ID {
			return true, nil
		}
	}
	zerolog.Ctx(ctx).Info().Int(LogKeyDecisionIssue, r.Issue).Msgf("Someone took the %s off by hand; it stays off, and the decision issue still closes with the clarification", e.what)
	return false, nil
}

// open gives clarification c its decision issue and edge: one the work issue is already
// tied to, else one an earlier run opened, else a new one. Where GitHub has no such edges,
// the relation records none, and the clarification goes on in the work issue alone.
func open(ctx context.Context, client *github.Client, env Env, kind string, c clarify.Clarification) (clarify.Relation, error) {
	logger := zerolog.Ctx(ctx)
	e := edgesOf(kind)
	r := clarify.Relation{Clarification: c.ID, Kind: kind}
	mark := render.Marker(render.RelationKey(c.ID))
	tied, err := e.listAll(ctx, client, env.Work)
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		logger.Warn().Str("clarification", c.ID).Msgf("GitHub answers 404 for the issue's %s list: it has no such relations here (a GitHub Enterprise Server without them?), so relations: %s does nothing for this clarification", e.what, kind)
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("list %s of %s: %w", e.what, env.Work.String(), err)
	}
	if is := env.own(tied, mark); is != nil {
		r.Issue, r.ID, r.Linked = is.GetNumber(), is.GetID(), true
		return r, nil
	}
	is, err := env.opened(ctx, client, c, mark)
	if err == nil && is == nil {
		is, err = env.create(ctx, client, c, mark)
	}
	if err != nil {
		return r, err
	}
	r.Issue, r.ID = is.GetNumber(), is.GetID()
	err = e.add(ctx, client, env.Work, r.ID)
	switch {
	case err == nil:
		r.Linked = true
	case ghtransport.IsStatus(err, http.StatusNotFound), ghtransport.IsStatus(err, http.StatusUnprocessableEntity), ghtransport.IsStatus(err, http.StatusForbidden):
		// GitHub refuses this edge (none here, a limit, a rule of its own): the decision
		// issue still stands for the question, and closes with it.
		logger.Warn().Err(err).Int(LogKeyDecisionIssue, r.Issue).Msgf("GitHub refused the %s; the decision issue stands without it", e.what)
	default:
		return r, fmt.Errorf("add %s #%d to %s: %w", e.what, r.Issue, env.Work.String(), err)
	}
	logger.Info().Int(LogKeyDecisionIssue, r.Issue).Str("clarification", c.ID).Bool("linked", r.Linked).Msg("Decision issue opened for a blocking clarification")
	return r, nil
}

// own returns the issue of list that is the app's decision issue carrying mark, or nil.
func (env Env) own(list []*github.Issue, mark string) *github.Issue {
	for _, is := range list {
		if strings.EqualFold(is.GetUser().GetLogin(), env.Bot) && env.Sealed(is.GetBody(), mark) {
			return is
		}
	}
	return nil
}

// opened finds the decision issue of c that an earlier run opened and failed to record (it
// stopped, or GitHub's answer was lost): among the 100 newest issues touched since the
// clarification was asked, the app's with the sealed marker. The seal, not a creator
// filter, tells the app's issue: a workflow's account (github-actions[bot]) is shared.
func (env Env) opened(ctx context.Context, client *github.Client, c clarify.Clarification, mark string) (*github.Issue, error) {
	list, _, err := client.Issues.ListByRepo(ctx, env.Work.Owner, env.Work.Repo, &github.IssueListByRepoOptions{
		State: "all", Since: c.CreatedAt, Sort: "created", Direction: "desc",
		ListOptions: github.ListOptions{PerPage: 100},
	})
	if err != nil {
		return nil, fmt.Errorf("look for the decision issue of %s: %w", c.ID, err)
	}
	return env.own(list, mark), nil
}

// create opens c's decision issue.
func (env Env) create(ctx context.Context, client *github.Client, c clarify.Clarification, mark string) (*github.Issue, error) {
	title := render.RelationTitle(c)
	body := env.Seal(render.RelationBody(c, env.Work, render.RelationKey(c.ID), env.RepliesHere), mark)
	is, _, err := client.Issues.Create(ctx, env.Work.Owner, env.Work.Repo, &github.IssueRequest{Title: &title, Body: &body})
	if err != nil {
		return nil, fmt.Errorf("open the decision issue of %s: %w", c.ID, err)
	}
	return is, nil
}

// settle takes a settled clarification's edge off and closes its decision issue with the
// decision, said once. A decision issue someone deleted is let be.
func settle(ctx context.Context, client *github.Client, env Env, r clarify.Relation, l clarify.Ledger) error {
	if r.Issue == 0 {
		return nil
	}
	e := edgesOf(r.Kind)
	if r.Linked {
		if err := e.remove(ctx, client, env.Work, r.ID); err != nil && !ghtransport.IsStatus(err, http.StatusNotFound) {
			return fmt.Errorf("remove %s #%d from %s: %w", e.what, r.Issue, env.Work.String(), err)
		}
	}
	var c *clarify.Clarification
	if found, ok := l.Find(r.Clarification); ok {
		c = &found
	}
	err := env.close(ctx, client, r, c)
	if gone(err) {
		zerolog.Ctx(ctx).Warn().Int(LogKeyDecisionIssue, r.Issue).Msg("The decision issue is gone; nothing to close")
		return nil
	}
	if err != nil {
		return fmt.Errorf("close the decision issue #%d of %s: %w", r.Issue, r.Clarification, err)
	}
	zerolog.Ctx(ctx).Info().Int(LogKeyDecisionIssue, r.Issue).Str("clarification", r.Clarification).Msg("Decision issue closed with the clarification")
	return nil
}

// close says the decision in the decision issue, unless a run said it already, and closes
// it: not planned for a question abandoned, completed otherwise.
func (env Env) close(ctx context.Context, client *github.Client, r clarify.Relation, c *clarify.Clarification) error {
	key := render.RelationClosedKey(r.Clarification)
	mark := render.Marker(key)
	comments, err := ghtransport.AllPages(func(page int) ([]*github.IssueComment, *github.Response, error) {
		return client.Issues.ListComments(ctx, env.Work.Owner, env.Work.Repo, r.Issue, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100, Page: page}})
	})
	if err != nil {
		return err
	}
	said := false
	for _, cm := range comments {
		said = said || strings.EqualFold(cm.GetUser().GetLogin(), env.Bot) && env.Sealed(cm.GetBody(), mark)
	}
	if !said {
		body := env.Seal(render.RelationClosed(r.Clarification, c, env.Work, key), mark)
		if _, _, err := client.Issues.CreateComment(ctx, env.Work.Owner, env.Work.Repo, r.Issue, &github.IssueComment{Body: &body}); err != nil {
			return err
		}
	}
	state, reason := "closed", "completed"
	if c != nil && c.Status == clarify.Abandoned {
		reason = "not_planned"
	}
	_, _, err = client.Issues.Edit(ctx, env.Work.Owner, env.Work.Repo, r.Issue, &github.IssueRequest{State: &state, StateReason: &reason})
	return err
}

// gone says GitHub answered that the issue is no more (deleted, or transferred away).
func gone(err error) bool {
	return ghtransport.IsStatus(err, http.StatusNotFound) || ghtransport.IsStatus(err, http.StatusGone)
}
