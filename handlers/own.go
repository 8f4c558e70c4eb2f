package handlers

import (
	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Which comments are the app's own is ledger/own.go's rule, for the runs, bot ledger, bot
// action and the asker's client alike; here are the runs' questions of it.

// ownComment reports whether c is the app's own comment in the issue (ledger.LedgerReader.OwnsBy).
func (b *Base) ownComment(ref issueRef, c *github.IssueComment) bool {
	return b.reader().OwnsBy(clarify.IssueRef(ref), c.GetUser(), c.GetBody())
}

// carries says whether c is the app's comment carrying mark. A round above the table of a
// status comment does not count here: when its ledger vouches for it, the caller never
// gets this far (snapshot.posted), and when it does not, the round is posted anew.
func (b *Base) carries(ref issueRef, c *github.IssueComment, mark string) bool {
	if !b.reader().CarriesMark(clarify.IssueRef(ref), c, mark) {
		return false
	}
	return mark == render.StatusMarker || !render.IsStatus(c.GetBody())
}

// selfSender reports whether an event's sender is the app itself, which the sender's login
// tells only when nobody else writes as it: an event GitHub reports back to the App about
// its own doing. From a shared account the event is looked at like anyone's.
func (b *Base) selfSender(u *github.User) bool {
	return b.isSelf(u) && !ledger.SharedAccount(b.BotLogin())
}

// OwnComment reports whether c, a comment of issue number of owner/repo, is the app's own:
// never input, and a sign that a run was there (bot action's scheduled run).
func (b *Base) OwnComment(owner, repo string, number int, c *github.IssueComment) bool {
	return b.ownComment(issueRef{Owner: owner, Repo: repo, Number: number}, c)
}

// Mirrored reports whether c, a comment of issue number of owner/repo, is the app's mirror
// of a dispatched command (dispatch.go): the app's own, and input all the same, which a
// scheduled run takes as a command (bot action's workflow writes it in a job of its own).
func (b *Base) Mirrored(owner, repo string, number int, c *github.IssueComment) bool {
	_, ok := b.readMirror(issueRef{Owner: owner, Repo: repo, Number: number}, c)
	return ok
}
