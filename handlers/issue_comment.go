package handlers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
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

// Accept marks the issue of a new comment holding a command as having an ask in flight
// until the delivery has run, so that a reply run before it is not filtered out.
func (h *IssueComment) Accept(eventType string, payload []byte) (done func()) {
	ev, err := decodeIssueComment(payload)
	if err != nil || ev.GetAction() != "created" || h.ownComment(refOf(ev.GetRepo(), ev.GetIssue()), ev.GetComment()) || !clarify.HasCommand(ev.GetComment().GetBody()) {
		return func() {}
	}
	return h.active.begin(refOf(ev.GetRepo(), ev.GetIssue()).String())
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

	// GitHub tells the app about its own comments; they are never input. Which are its own
	// is ledger/own.go's: from a shared account (a workflow's token) only those it sealed.
	if h.selfSender(ev.GetSender()) || (ev.GetAction() == "created" && h.ownComment(refOf(ev.GetRepo(), ev.GetIssue()), ev.GetComment())) {
		return nil
	}
	if ev.GetAction() != "created" {
		if !h.touchesStatus(ctx, ev) {
			return nil
		}
		// Someone else edited or deleted the status comment: put it right at once
		// (rebuilt from the comments if its ledger no longer verifies, or is older than the
		// body the edit replaced).
		ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
		if err != nil {
			return err
		}
		_, err = h.run(ctx, client, refOf(ev.GetRepo(), ev.GetIssue()), trigger{Kind: triggerTick, Issue: ev.GetIssue(),
			IssueClosed: ev.GetIssue().GetState() == "closed", Sender: ev.GetSender(), Replaced: ev.GetChanges().GetBody().GetFrom(),
			Deleted: deletedStatus(ev), Push: pushOf(ev.GetRepo())})
		return err
	}
	if work, cid, ok := h.decisionIssue(ev); ok && h.mode.relaysDecisionReplies() {
		return h.relayReply(ctx, ev, work, cid)
	}
	if !h.mayConcern(ev) {
		logger.Debug().Msg("Comment in an issue without clarifications holds no command")
		return nil
	}
	ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	_, err = h.run(ctx, client, refOf(ev.GetRepo(), ev.GetIssue()), trigger{
		Kind:       triggerComment,
		Comment:    ev.Comment,
		CommentApp: ledger.PayloadCommentApp(payload),
		Sender:     ev.GetSender(),
		At:         ev.GetComment().GetCreatedAt().Time,
		Issue:      ev.GetIssue(),
		// A rebuild sees only comments; the issue's state tells it about a close.
		IssueClosed: ev.GetIssue().GetState() == "closed",
		Push:        pushOf(ev.GetRepo()),
	})
	return err
}

// mayConcern is the cheap filter: a comment without a command, in an issue that the app
// has never touched, cannot answer anything, so it costs no request. The payload's labels
// may predate the app's own, so what this process knows of the issue counts too.
func (h *IssueComment) mayConcern(ev *github.IssueCommentEvent) bool {
	return h.hasOurLabel(ev.GetRepo().GetOwner().GetLogin(), ev.GetRepo().GetName(), ev.GetIssue().Labels) ||
		h.active.has(refOf(ev.GetRepo(), ev.GetIssue()).String()) || clarify.HasCommand(ev.GetComment().GetBody())
}

// touchesStatus reports whether an edit or deletion hit the app's status comment; other
// edits are never input, since an edited comment must not rewrite a recorded answer.
func (h *IssueComment) touchesStatus(ctx context.Context, ev *github.IssueCommentEvent) bool {
	logger := zerolog.Ctx(ctx)
	body := ev.GetComment().GetBody() + "\n" + ev.GetChanges().GetBody().GetFrom()
	if h.reader().IsStatus(refOf(ev.GetRepo(), ev.GetIssue()), ev.GetComment().GetUser(), body) {
		logger.Warn().Int64(LogKeyComment, ev.GetComment().GetID()).Msg("The status comment was edited or deleted by someone else")
		return true
	}
	logger.Debug().Msg("Edits and deletions are not input")
	return false
}

// deletedStatus is the comment a deletion's payload names, nil for an edit.
func deletedStatus(ev *github.IssueCommentEvent) *github.IssueComment {
	if ev.GetAction() != "deleted" {
		return nil
	}
	return ev.GetComment()
}
