package ledger

import (
	"strings"

	"github.com/clarify-app/clarify/wire"

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
// a plain marker (written before markers were sealed) still counts. A seal covers the
// whole comment, so a sealed marker copied into another comment makes it nobody's.

// ActionsLogin is the account a workflow's GITHUB_TOKEN writes as: the bot login
// (BotLoginOf) of the workflow token's app, wire.ActionsSlug.
const ActionsLogin = wire.ActionsSlug + "[bot]"

// SharedAccount reports whether others write as the app's login too.
func SharedAccount(login string) bool { return strings.EqualFold(login, ActionsLogin) }

// byAccount reports whether the account alone tells the app's comments: nobody else writes
// as it, or the reader verifies nothing (Unchecked, given no key).
func (r Reader) byAccount() bool { return !SharedAccount(r.Bot) || r.Unchecked }

// OwnsBy reports whether a comment by u with this body is the app's own in the issue: never
// input, never someone else's to answer.
func (r Reader) OwnsBy(ref clarify.IssueRef, u *github.User, body string) bool {
	switch {
	case !IsLogin(u, r.Bot):
		return false
	case r.byAccount():
		return true
	}
	return len(r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).SealedMarks(body)) > 0
}

// Owns reports whether c is the app's own comment in the issue (the owns rule): what the
// asker's client takes a refusal of its ask from.
func (r Reader) Owns(issue clarify.IssueRef, c *github.IssueComment) bool {
	return r.believed(issue, c) && r.OwnsBy(clarify.IssueRef{Owner: issue.Owner, Repo: issue.Repo, Number: issue.Number}, c.GetUser(), c.GetBody())
}

// OwnBlock reports whether c, by the app's account, is the app's comment holding a signed
// block (the decisions issue's parts and sweep index): from a shared account only when the
// block verifies, so that the app never takes another workflow's comment for one of its own
// and writes over it; from the App's own account always (one that does not verify was
// edited by hand, and is written right).
func (r Reader) OwnBlock(c *github.IssueComment, verifies func(body string) bool) bool {
	return IsLogin(c.GetUser(), r.Bot) && (r.byAccount() || verifies(c.GetBody()))
}

// CarriesMark reports whether c is the app's comment carrying mark (StatusMarker or a
// render.Marker): sealed under the issue's keys, or plain from an account nobody else
// writes as. It tells only that the app posted a message with that mark, so a seal of the
// marker alone (written before seals bound the body: render.IssueKeys.Posted) counts too.
func (r Reader) CarriesMark(ref clarify.IssueRef, c *github.IssueComment, mark string) bool {
	body := c.GetBody()
	switch {
	case !IsLogin(c.GetUser(), r.Bot):
		return false
	case r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).Posted(body, mark):
		return true
	}
	return r.byAccount() && strings.Contains(body, mark)
}

// IsStatus reports whether a comment by u with this body is the app's status comment in
// the issue. From an account nobody else writes as, any status marker of its is (one that
// does not verify marks a status comment edited by hand, which is rebuilt); from a shared
// account, only a body its status seal vouches for, or a status marker of any other form
// (plain from before markers were sealed, sealed alone, or sealed over a body since edited)
// over a ledger that verifies: the ledger's MAC covers what is read from it.
// To a reader given public keys, only a comment signed under one of them is (believed).
func (r Reader) IsStatus(ref clarify.IssueRef, u *github.User, body string) bool {
	switch {
	case !render.IsStatus(body) || !IsLogin(u, r.Bot) || !r.believedBy(ref, u, body):
		return false
	case r.byAccount():
		return true
	case r.Keys.Issue(ref.Owner, ref.Repo, ref.Number).Sealed(body, render.StatusMarker):
		return true
	}
	_, err := r.DecodeStatus(ref, body)
	return err == nil
}
