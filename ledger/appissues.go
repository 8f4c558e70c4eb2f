package ledger

import (
	"regexp"

	"github.com/google/go-github/v60/github"
)

// appIssueMarkIn finds the mark a label's description carries after the number.
var appIssueMarkIn = regexp.MustCompile(`· mark ([0-9a-f]+)`)

// Marked reports whether a label's description carries the app's mark for issue n as its
// issue of kind: the app writes it when it makes the issue, and it does not verify for
// another number, so the label proves the issue is the app's without reading it.
func (r Reader) Marked(owner, repo, kind string, n int, desc string) bool {
	m := appIssueMarkIn.FindStringSubmatch(desc)
	return m != nil && r.MarkedAs(owner, repo, kind, n, m[1])
}

// MarkedAs reports whether mark is the app's for issue n as its issue of kind: the proof a
// label carries, and the one a ledger's hint keeps with the number (hints.go), so that a
// hint is followed exactly when the label would be without reading the issue.
func (r Reader) MarkedAs(owner, repo, kind string, n int, mark string) bool {
	return r.Keys.Issue(owner, repo, n).IsAppIssueMark(kind, mark)
}

// OwnIssue reports whether is, read because its label carries no mark (a label written
// before marks, or edited), is provably the app's: an issue, not a pull request, made by
// the app's account, and signed says it carries the app's signed mark (a block of its that
// verifies under the issue's key). In bot action the account alone proves nothing: every
// workflow of the repository writes as github-actions[bot].
func (r Reader) OwnIssue(is *github.Issue, signed bool) bool {
	return is != nil && is.PullRequestLinks == nil && IsLogin(is.GetUser(), r.Bot) && signed
}
