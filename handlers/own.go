package handlers

import (
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// Which comments are the app's own is decided here, for the runs, bot ledger, bot action
// and the asker's client alike. The app's account says little when others write as it too: a workflow's
// GITHUB_TOKEN writes as github-actions[bot], which every workflow of the repository
// shares, and so do the agents that run in them. So the app seals the markers of its
// comments under the issue's key (render/seal.go), and from a shared account only a
// comment carrying a sealed marker is the app's: any other is input, like a bot's. From
// the App's own "<slug>[bot]", which nobody else can write as, the account is enough, and
// a plain marker (written before markers were sealed) still counts.

// ActionsLogin is the account a workflow's GITHUB_TOKEN writes as.
const ActionsLogin = "github-actions[bot]"

// sharedAccount reports whether others write as the app's login too.
func sharedAccount(login string) bool { return strings.EqualFold(login, ActionsLogin) }

// byAccount reports whether the account alone tells the app's comments: nobody else writes
// as it, or the reader verifies nothing (Unchecked, given no key).
func (r LedgerReader) byAccount() bool { return !sharedAccount(r.Bot) || r.Unchecked }

// owns reports whether a comment by u with this body is the app's own in the issue: never
// input, never someone else's to answer.
func (r LedgerReader) owns(ref issueRef, u *github.User, body string) bool {
	switch {
	case !isLogin(u, r.Bot):
		return false
	case r.byAccount():
		return true
	}
	return len(r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).SealedMarks(body)) > 0
}

// Owns reports whether c is the app's own comment in the issue (the owns rule): what the
// asker's client takes a refusal of its ask from.
func (r LedgerReader) Owns(issue clarify.IssueRef, c *github.IssueComment) bool {
	ref := issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}
	return r.believed(ref, c) && r.owns(issueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}, c.GetUser(), c.GetBody())
}

// ownBlock reports whether c, by the app's account, is the app's comment holding a signed
// block (the decisions issue's parts and sweep index): from a shared account only when the
// block verifies, so that the app never takes another workflow's comment for one of its own
// and writes over it; from the App's own account always (one that does not verify was
// edited by hand, and is written right).
func (r LedgerReader) ownBlock(c *github.IssueComment, verifies func(body string) bool) bool {
	return isLogin(c.GetUser(), r.Bot) && (r.byAccount() || verifies(c.GetBody()))
}

// carriesMark reports whether c is the app's comment carrying mark (StatusMarker or a
// render.Marker): sealed under the issue's keys, or plain from an account nobody else
// writes as.
func (r LedgerReader) carriesMark(ref issueRef, c *github.IssueComment, mark string) bool {
	body := c.GetBody()
	switch {
	case !isLogin(c.GetUser(), r.Bot):
		return false
	case r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).Sealed(body, mark):
		return true
	}
	return r.byAccount() && strings.Contains(body, mark)
}

// isStatus reports whether a comment by u with this body is the app's status comment in
// the issue. From an account nobody else writes as, any status marker of its is (one that
// does not verify marks a status comment edited by hand, which is rebuilt); from a shared
// account, only a status marker sealed under the issue's keys, or a plain one (written
// before markers were sealed) over a ledger that verifies.
func (r LedgerReader) isStatus(ref issueRef, u *github.User, body string) bool {
	switch {
	case !render.IsStatus(body) || !isLogin(u, r.Bot):
		return false
	case r.byAccount():
		return true
	case r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).Sealed(body, render.StatusMarker):
		return true
	case !strings.Contains(body, render.StatusMarker):
		return false
	}
	_, err := r.decodeStatus(ref, body)
	return err == nil
}

// ownComment reports whether c is the app's own comment in the issue (LedgerReader.owns).
func (b *Base) ownComment(ref issueRef, c *github.IssueComment) bool {
	return b.reader().owns(ref, c.GetUser(), c.GetBody())
}

// carries says whether c is the app's comment carrying mark. A round above the table of a
// status comment does not count here: when its ledger vouches for it, the caller never
// gets this far (snapshot.posted), and when it does not, the round is posted anew.
func (b *Base) carries(ref issueRef, c *github.IssueComment, mark string) bool {
	if !b.reader().carriesMark(ref, c, mark) {
		return false
	}
	return mark == render.StatusMarker || !render.IsStatus(c.GetBody())
}

// selfSender reports whether an event's sender is the app itself, which the sender's login
// tells only when nobody else writes as it: an event GitHub reports back to the App about
// its own doing. From a shared account the event is looked at like anyone's.
func (b *Base) selfSender(u *github.User) bool {
	return b.isSelf(u) && !sharedAccount(b.BotLogin())
}

// OwnComment reports whether c, a comment of issue number of owner/repo, is the app's own:
// never input, and a sign that a run was there (bot action's scheduled run).
func (b *Base) OwnComment(owner, repo string, number int, c *github.IssueComment) bool {
	return b.ownComment(issueRef{Owner: owner, Repo: repo, Number: number}, c)
}
