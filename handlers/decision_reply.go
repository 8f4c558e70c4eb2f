package handlers

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// A reply in a decision issue (relations:, handlers/relations) answers its clarification.
// The work issue's ledger is a fold over the work issue's own comments, so the reply is
// taken there as a dispatch is (dispatch.go): the app mirrors it into the work issue, under
// a marker named for the reply, and every fold takes the mirror as the replier's comment.
// A reply that is no command is the replier's `/respond` to the decision issue's
// clarification; one holding a command is that command. Everything else is the dispatch's:
// an outsider's reply writes nothing, a redelivered one finds its mirror, and who may
// answer is decided by the fold, exactly as for a comment in the work issue.

// decisionIssue reports the work issue and the clarification of which the issue of a new
// comment is the app's decision issue: opened by the app, with the body the app wrote,
// sealed under the work issue's key (a body someone edited is no longer the app's).
func (h *IssueComment) decisionIssue(ev *github.IssueCommentEvent) (clarify.IssueRef, string, bool) {
	is := ev.GetIssue()
	if is.IsPullRequest() || !h.isSelf(is.GetUser()) {
		return clarify.IssueRef{}, "", false
	}
	work, cid, ok := render.RelationOf(is.GetBody())
	here := refOf(ev.GetRepo(), is)
	if !ok || !strings.EqualFold(work.Owner, here.Owner) || !strings.EqualFold(work.Repo, here.Repo) || work.Number == here.Number {
		return clarify.IssueRef{}, "", false
	}
	work.Owner, work.Repo = here.Owner, here.Repo
	return work, cid, h.keys(work).Sealed(is.GetBody(), render.Marker(render.RelationKey(cid)))
}

// relayReply runs the work issue for a reply in its decision issue: the reply's mirror,
// found or written, is folded in as the replier's comment. The app's own comments there
// (the one that closes it) are not replies: they are sealed under the work issue's key.
func (h *IssueComment) relayReply(ctx context.Context, ev *github.IssueCommentEvent, work clarify.IssueRef, cid string) error {
	c := ev.GetComment()
	if h.ownComment(work, c) {
		return nil
	}
	logger := zerolog.Ctx(ctx).With().Int("work_issue", work.Number).Str("clarification", cid).Logger()
	ctx = logger.WithContext(ctx)
	ctx, client, err := h.InstallationClient(ctx, ev.GetInstallation().GetID())
	if err != nil {
		return err
	}
	logger.Info().Int64(LogKeyComment, c.GetID()).Msg("Reply in a decision issue; taking it to the work issue")
	trig, ok, err := dispatchTrigger(ctx, client, work, replyRequest(c, ev.GetIssue().GetNumber(), cid), h.Now(), ev.GetRepo())
	if !ok || err != nil {
		return err
	}
	_, err = h.run(ctx, client, work, trig)
	return err
}

// replyRequest is the command a reply in decision issue n stands for, as a dispatch's
// request: its marker is named for the reply's comment, which a redelivery keeps.
func replyRequest(c *github.IssueComment, n int, cid string) *dispatchRequest {
	body := strings.TrimSpace(c.GetBody())
	command := body
	if !clarify.HasCommand(body) {
		command = "/respond " + cid + " " + body
	}
	req := &dispatchRequest{GUID: fmt.Sprintf("reply-%d", c.GetID()), Sender: c.GetUser(), Decision: n}
	if len(command) > maxDispatchCommand {
		req.Problem = &dispatchProblem{
			Problem: fmt.Sprintf("this reply is %d bytes long; one taken from a decision issue may have at most %d.", len(command), maxDispatchCommand),
			Try:     "shorten it, or answer in this issue.",
		}
		return req
	}
	req.Command = command
	return req
}
