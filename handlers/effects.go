package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

// report posts the notices a run owes the issue before its effects: that the ledger was
// rebuilt rather than trusted, and that the repository's config is broken (only from the
// run that read it, not every run while it lasts).
func (run *issueRun) report(ctx context.Context) error {
	if run.damaged {
		// Once per damaged status comment: its hash is in the marker.
		var h [8]byte
		if run.status != nil {
			sum := sha256.Sum256([]byte(run.status.GetBody()))
			copy(h[:], sum[:])
		}
		key := "rebuilt:" + hex.EncodeToString(h[:])
		why := render.RebuiltDeleted
		switch {
		case run.older:
			why = render.RebuiltOlder
		case run.status != nil:
			why = render.RebuiltEdited
		}
		if _, err := run.postOnce(ctx, render.Marker(key), render.Rebuilt(why, key)); err != nil {
			return err
		}
	}
	if p := run.cfg.Problem; p != nil && run.cfg.Fresh {
		key := p.Key()
		if _, err := run.postOnce(ctx, render.Marker(key), render.ConfigProblem(p.Source, p.Path, p.Lines(), key)); err != nil {
			return err
		}
	}
	return nil
}

// maxHead bounds the round a status comment is created with, so that a long question
// does not take the room the ledger needs; a longer one is a comment of its own.
const maxHead = 4096

// carryOut posts and reacts as the effects say; every posted comment carries its effect's
// marker, and a marker already in one of the app's comments is not posted again.
func (run *issueRun) carryOut(ctx context.Context) error {
	l, p, effects := run.folded.ledger, withEscalationFallback(run.cfg.Policy, run.trig.Issue), run.folded.effects
	logger := zerolog.Ctx(ctx)
	for _, e := range effects {
		if e.Kind == clarify.EffectReact {
			if err := react(ctx, run.client, run.ref, e); err != nil {
				return err
			}
			continue
		}
		if run.posted(e.Key) {
			continue
		}
		if e.Kind == clarify.EffectSupersede {
			if err := decisions.Supersede(ctx, run, run.inherits, l, e); err != nil {
				return err
			}
			continue
		}
		body, ok := renderEffect(e, l, p)
		body = decisions.WithOffer(run.offers, e, l, body)
		if !ok {
			logger.Error().Str("effect", string(e.Kind)).Str("clarification", e.ClarificationID).Msg("Effect names a clarification the ledger lacks")
			continue
		}
		if e.Kind == clarify.EffectPostRound && run.status == nil && run.head == "" && len(body) <= maxHead {
			// The issue's first round goes above the table of the status comment the save
			// creates: one comment, and one write, fewer, with the same mentions.
			run.head = run.keys(run.ref).Seal(body, render.Marker(e.Key))
			continue
		}
		posted, err := run.postOnce(ctx, render.Marker(e.Key), body)
		if err != nil {
			return fmt.Errorf("%s comment: %w", e.Kind, err)
		}
		if o := run.offers[e.Key]; o != nil {
			o.Comment = posted.GetID()
		}
	}
	return nil
}

// react acknowledges a comment with a reaction; GitHub keeps one reaction per user and
// content, so doing it again changes nothing.
func react(ctx context.Context, client *github.Client, ref clarify.IssueRef, e clarify.Effect) error {
	_, _, err := client.Reactions.CreateIssueCommentReaction(ctx, ref.Owner, ref.Repo, e.CommentID, e.Reaction)
	if ghtransport.IsStatus(err, http.StatusNotFound) {
		// Best effort: the comment was deleted before we could acknowledge it.
		zerolog.Ctx(ctx).Warn().Int64(LogKeyComment, e.CommentID).Msg("Comment to react to is gone")
		return nil
	}
	if err != nil {
		return fmt.Errorf("react to comment %d: %w", e.CommentID, err)
	}
	return nil
}

// renderEffect writes the comment an effect posts; false when it names a clarification
// the ledger lacks.
func renderEffect(e clarify.Effect, l clarify.Ledger, p clarify.Policy) (string, bool) {
	if e.Kind == clarify.EffectReply {
		return render.Reply(e.Reply, l, e.Key), true
	}
	c, ok := l.Find(e.ClarificationID)
	if !ok {
		return "", false
	}
	switch e.Kind {
	case clarify.EffectPostRound:
		return render.Round(c, e.Round, e.Mention, e.Key), true
	case clarify.EffectEscalate:
		return render.Escalation(c, e.Reason, p.EscalationMention, e.Key), true
	case clarify.EffectPing:
		return render.Ping(c, e.Mention, e.Key), true
	case clarify.EffectTimeout:
		return render.Timeout(c, e.Key), true
	case clarify.EffectPrecedent:
		return render.FromPrecedent(c, e.Key), true
	}
	return "", false
}

// withEscalationFallback makes sure an escalation reaches a person: the repository's
// escalation.mention, else the issue's assignees, else its author when a human.
func withEscalationFallback(p clarify.Policy, issue *github.Issue) clarify.Policy {
	if len(p.EscalationMention) > 0 || issue == nil {
		return p
	}
	var people []string
	for _, a := range issue.Assignees {
		people = append(people, a.GetLogin())
	}
	if len(people) == 0 && issue.GetUser().GetType() != "Bot" && issue.GetUser().GetLogin() != "" {
		people = []string{issue.GetUser().GetLogin()}
	}
	p.EscalationMention = people
	return p
}
