package handlers

import (
	"crypto/ed25519"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Identity is who the app is: its account and its keys. It answers which comments are
// the app's own (ledger/own.go's rule, for the runs, bot ledger, bot action and the
// asker's client alike), and signs and reads the app's blocks.
type Identity struct {
	// AppSlug is the app's slug; its comments are written by "<slug>[bot]".
	AppSlug string
	// LedgerKey keys the MAC of the hidden ledger (through IssueLedgerKey).
	LedgerKey []byte
	// PreviousKeys still verify ledgers written before a key rotation.
	PreviousKeys [][]byte
}

// IsSlug reports whether s can be a GitHub App's slug, as in github.com/apps/SLUG: the app
// knows its own comments by "<slug>[bot]", so a slug written with [bot] or a display name
// would never match, and every run would take the app's own comments for someone else's.
func IsSlug(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// BotLogin is the login GitHub gives the app's own comments.
func (id *Identity) BotLogin() string { return ledger.BotLoginOf(id.AppSlug) }

// isSelf reports whether a user is the app itself.
func (id *Identity) isSelf(u *github.User) bool {
	return ledger.IsLogin(u, id.BotLogin())
}

// ownComment reports whether c is the app's own comment in the issue (ledger.Reader.OwnsBy).
func (id *Identity) ownComment(ref clarify.IssueRef, c *github.IssueComment) bool {
	return id.reader().OwnsBy(ref, c.GetUser(), c.GetBody())
}

// carries says whether c is the app's comment carrying mark. A round above the table of a
// status comment does not count here: when its ledger vouches for it, the caller never
// gets this far (issueRun.posted), and when it does not, the round is posted anew.
func (id *Identity) carries(ref clarify.IssueRef, c *github.IssueComment, mark string) bool {
	if !id.reader().CarriesMark(ref, c, mark) {
		return false
	}
	return mark == render.StatusMarker || !render.IsStatus(c.GetBody())
}

// selfSender reports whether an event's sender is the app itself, which the sender's login
// tells only when nobody else writes as it: an event GitHub reports back to the App about
// its own doing. From a shared account the event is looked at like anyone's.
func (id *Identity) selfSender(u *github.User) bool {
	return id.isSelf(u) && !ledger.SharedAccount(id.BotLogin())
}

// OwnComment reports whether c, a comment of issue number of owner/repo, is the app's own:
// never input, and a sign that a run was there (bot action's scheduled run).
func (id *Identity) OwnComment(owner, repo string, number int, c *github.IssueComment) bool {
	return id.ownComment(clarify.IssueRef{Owner: owner, Repo: repo, Number: number}, c)
}

// Mirrored reports whether c, a comment of issue number of owner/repo, is the app's mirror
// of a dispatched command (dispatch.go): the app's own, and input all the same, which a
// scheduled run takes as a command (bot action's workflow writes it in a job of its own).
func (id *Identity) Mirrored(owner, repo string, number int, c *github.IssueComment) bool {
	_, ok := id.readMirror(clarify.IssueRef{Owner: owner, Repo: repo, Number: number}, c)
	return ok
}

// keys are the issue's keys from the app's keyring: which keys sign and verify its blocks
// is render.Keyring's rule.
func (id *Identity) keys(ref clarify.IssueRef) render.IssueKeys {
	return id.reader().Keys.Issue(ref.Owner, ref.Repo, ref.Number)
}

// decodeLedger verifies and decodes the ledger in a status comment of the issue.
func (id *Identity) decodeLedger(ref clarify.IssueRef, body string) (clarify.Ledger, error) {
	return id.reader().DecodeStatus(ref, body)
}

// reader reads the issue's ledger as bot ledger does, under the app's keyring.
func (id *Identity) reader() ledger.Reader {
	return ledger.Reader{Bot: id.BotLogin(), Keys: render.Keyring{Current: id.LedgerKey, Previous: id.PreviousKeys}}
}

// commentKey is the Ed25519 key the app signs its comments with: drawn from the ledger key
// where its account is shared, for askers, who verify with its public half and never hold
// the ledger key (ledger/public.go); nil elsewhere (the App's own account is proof enough).
func (id *Identity) commentKey() ed25519.PrivateKey {
	if !ledger.SharedAccount(id.BotLogin()) || len(id.LedgerKey) == 0 {
		return nil
	}
	key, err := render.SigningKey(id.LedgerKey)
	if err != nil {
		return nil
	}
	return key
}

// signed is body as the app writes it as a comment of ref's issue: signed for askers
// where its account is shared (commentKey).
func (id *Identity) signed(ref clarify.IssueRef, body string) string {
	return render.SignComment(id.commentKey(), ref.Owner, ref.Repo, ref.Number, body)
}
