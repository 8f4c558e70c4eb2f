package handlers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/handlers/relations"
	"github.com/clarify-app/clarify/ledger"
)

// RelationEvents handles issue_dependencies and sub_issues events (relations:,
// handlers/relations): an edge between a work issue and one of the app's decision issues
// that someone else took off while its clarification is open stays off, and the ledger
// says so. Everything else (the app's own edges reported back, other people's edges
// between other issues) costs no request.
// Payloads: https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_dependencies
// and #sub_issues. go-github v60 has no types for them.
type RelationEvents struct {
	*Base
}

var _ githubapp.EventHandler = (*RelationEvents)(nil)

// Handles lists the events this handler takes.
func (h *RelationEvents) Handles() []string { return []string{"issue_dependencies", "sub_issues"} }

// relationEvent is the part of both payloads the app reads.
type relationEvent struct {
	Action       string               `json:"action"`
	Repo         *github.Repository   `json:"repository"`
	Installation *github.Installation `json:"installation"`
	Sender       *github.User         `json:"sender"`
	// BlockedIssue is blocked by BlockingIssue (issue_dependencies).
	BlockedIssue  *github.Issue `json:"blocked_issue"`
	BlockingIssue *github.Issue `json:"blocking_issue"`
	// SubIssue is a sub-issue of ParentIssue (sub_issues).
	ParentIssue *github.Issue `json:"parent_issue"`
	SubIssue    *github.Issue `json:"sub_issue"`
}

// ends returns the work issue and the decision issue: the one blocked and the one blocking
// it, or the parent and its sub-issue.
func (ev relationEvent) ends() (work, decision *github.Issue) {
	if ev.BlockedIssue != nil {
		return ev.BlockedIssue, ev.BlockingIssue
	}
	return ev.ParentIssue, ev.SubIssue
}

// Validate decodes the payload before the delivery is accepted, so a malformed one gets 400.
func (h *RelationEvents) Validate(eventType string, payload []byte) error {
	_, err := decodeRelationEvent(payload)
	return err
}

func decodeRelationEvent(payload []byte) (*relationEvent, error) {
	var ev relationEvent
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	// GitHub's schema of both events makes the issues themselves optional beside their ids:
	// a payload without them is GitHub's and is accepted, and Handle lets it be.
	if ev.Repo.GetOwner().GetLogin() == "" || ev.Repo.GetName() == "" {
		return nil, errors.New("relation payload lacks the repository")
	}
	return &ev, nil
}

// Handle runs the work issue when someone else took off its edge to one of the app's
// decision issues: the run looks, and records the edge off (relations.Env.TakenOff).
func (h *RelationEvents) Handle(ctx context.Context, eventType, deliveryID string, payload []byte) error {
	ev, err := decodeRelationEvent(payload)
	if err != nil {
		return githubapp.ValidationError{EventType: eventType, DeliveryID: deliveryID, Cause: err}
	}
	work, decision := ev.ends()
	if ev.Action != "blocked_by_removed" && ev.Action != "sub_issue_removed" || h.selfSender(ev.Sender) ||
		work.GetNumber() == 0 || !ledger.IsLogin(decision.GetUser(), h.BotLogin()) {
		return nil
	}
	ref := refOf(ev.Repo, work)
	if !h.hasOurLabel(ref.Owner, ref.Repo, work.Labels) && !h.active.has(ref.String()) {
		return nil
	}
	ctx, logger := githubapp.PrepareRepoContext(ctx, ev.Installation.GetID(), ev.Repo)
	logger = logger.With().Int(LogKeyIssue, ref.Number).Str(LogKeyAction, ev.Action).Str(LogKeySender, ev.Sender.GetLogin()).
		Int(relations.LogKeyDecisionIssue, decision.GetNumber()).Logger()
	ctx = logger.WithContext(ctx)
	ctx, client, err := h.InstallationClient(ctx, ev.Installation.GetID())
	if err != nil {
		return err
	}
	_, err = h.run(ctx, client, ref, trigger{Kind: triggerTick, Issue: work, Sender: ev.Sender, TakenOff: decision.GetNumber(),
		Push: pushOf(ev.Repo)})
	return err
}
