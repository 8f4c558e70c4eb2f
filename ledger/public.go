package ledger

import (
	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// Where the app's account is shared (a workflow's github-actions[bot]), the MAC under the
// ledger key tells the app its own comments, but an asker must never hold that key: any
// workflow, and any agent in one, holding it could write records the asker believes. So
// there the app also signs each comment it writes with the Ed25519 key drawn from its
// ledger key (render/public.go), and a reader given the public keys (Reader.Public)
// believes a comment of the account only with that signature.

// believed reports whether c, a comment of ref's issue, may be the app's to a reader given
// public keys: by another account (the other rules decide), or signed under one of them.
func (r Reader) believed(ref clarify.IssueRef, c *github.IssueComment) bool {
	return r.believedBy(ref, c.GetUser(), c.GetBody())
}

// believedBy is believed of a comment by u with that body.
func (r Reader) believedBy(ref clarify.IssueRef, u *github.User, body string) bool {
	return len(r.Public) == 0 || !IsLogin(u, r.Bot) || r.Public.Signed(ref.Owner, ref.Repo, ref.Number, body)
}

// unsignedLogin is the account a comment of the app's account without its signature is
// read as: not the app's, so that it counts as anyone's comment would.
const unsignedLogin = "unsigned comment of the app's account"

// believe returns comments with each one of the app's account that a reader given public
// keys does not believe (believed) read as someone else's; comments itself when all are.
// The copies keep their id, so the ledger's cursor still finds its place among them.
func (r Reader) believe(ref clarify.IssueRef, comments []*github.IssueComment) []*github.IssueComment {
	if len(r.Public) == 0 {
		return comments
	}
	out := make([]*github.IssueComment, len(comments))
	for i, c := range comments {
		out[i] = c
		if !r.believed(ref, c) {
			cp := *c
			cp.User = &github.User{Login: github.String(unsignedLogin)}
			out[i] = &cp
		}
	}
	return out
}
