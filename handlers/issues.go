package handlers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/clarify"
)

// Issues handles issues events: closing an issue abandons what is open in it; reopening
// revives nothing.
// Payload: https://docs.github.com/en/webhooks/webhook-events-and-payloads#issues
type Issues struct {
	*Base
}

var _ githubapp.EventHandler = (*Issues)(nil)

// Handles lists the events this handler takes.
func (h *Issues) Handles() []string { return []string{"issues"} }

// Validate decodes the payload before the delivery is accepted, so a malformed one gets 400.
func (h *Issues) Validate(eventType string, payload []byte) error {
	_, err := decodeIssues(payload)
	return err
}

func decodeIssues(payload []byte) (*github.IssuesEvent, error) {
	var ev github.IssuesEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	if ev.GetRepo().GetOwner().GetLogin() == "" || ev.GetRepo().GetName() == "" || ev.GetIssue().GetNumber() == 0 {
		return nil, errors.New("issues payload lacks repository or issue")
	}
	return &ev, nil
}

// Handle folds a close or reopen into the ledger and reconciles the issue.
func (h *Issues) Handle(ctx context.Context, eventType, deliveryID string, payload []byte) error {
	ev, err := decodeIssues(payload)
	if err != nil {
		return githubapp.ValidationError{EventType: eventType, DeliveryID: deliveryID, Cause: err}
	}
	var kind clarify.EventKind
	switch ev.GetAction() {
	case "closed":
		kind = clarify.EventClosed
	case "reopened":
		kind = clarify.EventReopened
	default:
		return nil
	}
	ctx, logger := githubapp.PrepareRepoContext(ctx, ev.GetInstallation().GetID(), ev.GetRepo())
	logger = logger.With().Int(LogKeyIssue, ev.GetIssue().GetNumber()).Str(LogKeyAction, ev.GetAction()).
		Str(LogKeySender, ev.GetSender().GetLogin()).Logger()
	ctx = logger.WithContext(ctx)
	ref := refOf(ev.GetRepo(), ev.GetIssue())
	if !h.hasOurLabel(ref.Owner, ref.Repo, ev.GetIssue().Labels) && !h.active.has(ref.String()) {
		// Nothing is open (neither the labels nor this process know of anything), so
		// there is nothing to abandon and nothing to revive: an unrelated issue costs no
		// request. The sweep settles a close that slipped past (closed issues that still
		// carry the active label).
		return nil
	}

	ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	at := ev.GetIssue().GetUpdatedAt().Time
	if kind == clarify.EventClosed && ev.GetIssue().ClosedAt != nil {
		at = ev.GetIssue().GetClosedAt().Time
	}
	_, err = h.run(ctx, client, ref, trigger{Kind: triggerIssue, Event: kind, Sender: ev.GetSender(), At: at, Issue: ev.GetIssue(),
		Push: pushOf(ev.GetRepo())})
	return err
}
