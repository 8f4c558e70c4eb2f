package handlers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// IssueComment handles issue_comment events: a new comment is folded into the issue's
// ledger; edits and deletions are never input.
// Payload: https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment
type IssueComment struct {
	*Base
}

var _ githubapp.EventHandler = (*IssueComment)(nil)

// Handles lists the events this handler takes.
func (h *IssueComment) Handles() []string { return []string{"issue_comment"} }

// Validate decodes the payload before the delivery is accepted, so a malformed one gets 400.
func (h *IssueComment) Validate(eventType string, payload []byte) error {
	_, err := decodeIssueComment(payload)
	return err
}

func decodeIssueComment(payload []byte) (*github.IssueCommentEvent, error) {
	var ev github.IssueCommentEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	if ev.GetRepo().GetOwner().GetLogin() == "" || ev.GetRepo().GetName() == "" || ev.GetIssue().GetNumber() == 0 || ev.Comment == nil {
		return nil, errors.New("issue_comment payload lacks repository, issue or comment")
	}
	return &ev, nil
}

// Handle folds a new comment into the ledger and reconciles the issue.
func (h *IssueComment) Handle(ctx context.Context, eventType, deliveryID string, payload []byte) error {
	ev, err := decodeIssueComment(payload)
	if err != nil {
		return githubapp.ValidationError{EventType: eventType, DeliveryID: deliveryID, Cause: err}
	}
	ctx, logger := githubapp.PrepareRepoContext(ctx, ev.GetInstallation().GetID(), ev.GetRepo())
	logger = logger.With().Int(LogKeyIssue, ev.GetIssue().GetNumber()).Str(LogKeyAction, ev.GetAction()).
		Str(LogKeySender, ev.GetSender().GetLogin()).Logger()
	ctx = logger.WithContext(ctx)

	if h.isSelf(ev.GetSender()) {
		return nil // GitHub tells the app about its own comments; they are never input.
	}
	if ev.GetAction() != "created" {
		if !h.touchesStatus(ctx, ev) {
			return nil
		}
		// Someone else edited or deleted the status comment: put it right at once
		// (rebuilt from the comments if its ledger no longer verifies).
		client, err := h.Clients.NewInstallationClient(ev.GetInstallation().GetID())
		if err != nil {
			return err
		}
		ref := issueRef{Owner: ev.GetRepo().GetOwner().GetLogin(), Repo: ev.GetRepo().GetName(), Number: ev.GetIssue().GetNumber()}
		_, err = h.run(ctx, client, ref, trigger{Kind: triggerTick, Labels: ev.GetIssue().Labels, IssueClosed: ev.GetIssue().GetState() == "closed", Sender: ev.GetSender()})
		return err
	}
	if !h.mayConcern(ev) {
		logger.Debug().Msg("Comment in an issue without clarifications holds no command")
		return nil
	}
	client, err := h.Clients.NewInstallationClient(ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	ref := issueRef{Owner: ev.GetRepo().GetOwner().GetLogin(), Repo: ev.GetRepo().GetName(), Number: ev.GetIssue().GetNumber()}
	_, err = h.run(ctx, client, ref, trigger{
		Kind:    triggerComment,
		Comment: ev.Comment,
		Sender:  ev.GetSender(),
		At:      ev.GetComment().GetCreatedAt().Time,
		Labels:  ev.GetIssue().Labels,
		// A rebuild sees only comments; the issue's state tells it about a close.
		IssueClosed: ev.GetIssue().GetState() == "closed",
	})
	return err
}

// mayConcern is the cheap filter: a comment without a command, in an issue that carries
// none of our labels, cannot answer anything, so it costs no request.
func (h *IssueComment) mayConcern(ev *github.IssueCommentEvent) bool {
	if h.hasOurLabel(ev.GetRepo().GetOwner().GetLogin(), ev.GetRepo().GetName(), ev.GetIssue().Labels) {
		return true
	}
	cmd, err := clarify.Parse(ev.GetComment().GetBody())
	return err != nil || cmd.Kind != clarify.CmdNone
}

// touchesStatus reports whether an edit or deletion hit the app's status comment; other
// edits are never input, since an edited comment must not rewrite a recorded answer.
func (h *IssueComment) touchesStatus(ctx context.Context, ev *github.IssueCommentEvent) bool {
	logger := zerolog.Ctx(ctx)
	if h.isSelf(ev.GetComment().GetUser()) && render.IsStatus(ev.GetComment().GetBody()+ev.GetChanges().GetBody().GetFrom()) {
		logger.Warn().Int64(LogKeyComment, ev.GetComment().GetID()).Msg("The status comment was edited or deleted by someone else")
		return true
	}
	logger.Debug().Msg("Edits and deletions are not input")
	return false
}
