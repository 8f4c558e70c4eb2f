package asker

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/repoconfig"
	"github.com/clarify-app/clarify/wire"
)

// Whom the client believes in a repository is found there, never taken from the asker's
// environment: the repository's .github/clarify.yml (on its default branch, which only
// people with write access change) lists verify_keys where Clarify runs as a workflow, and
// then only github-actions[bot]'s comments signed under one of them are Clarify's;
// elsewhere Clarify is the App, whose comments as "<slug>[bot]" nobody else can write. The
// asker never holds the ledger key: with it, it could forge what it reads.

// configPath is the repository's Clarify config, read from its default branch.
const configPath = ".github/clarify.yml"

// ErrNoVerifyKey refuses to believe a workflow that lists no public key to verify it by
// (--app github-actions): a cannot-verify error, which exits ExitCannotVerify.
var ErrNoVerifyKey = &Error{Code: clarify.CodeCannotVerify, Msg: "here Clarify writes as github-actions[bot], which every workflow of the repository " +
	"(and any agent in one) writes as too, so its comments are believed only when signed under a key that " +
	".github/clarify.yml lists, and it lists none: " + addKeyFix}

// addKeyFix is how a repository lists the key its Clarify workflow signs with.
const addKeyFix = "someone holding CLARIFY_LEDGER_KEY runs `bot key public` and adds the line it prints (verify_keys) " +
	"to .github/clarify.yml on the default branch"

// CheckSlug refuses a slug written with its account's "[bot]": the flag takes the App's
// slug, as in github.com/apps/SLUG.
func CheckSlug(slug string) error {
	if strings.HasSuffix(strings.ToLower(slug), "[bot]") {
		return fmt.Errorf("--app %q: give the app's slug, as in github.com/apps/SLUG, without [bot] (--app %s)",
			slug, strings.TrimSuffix(strings.TrimSuffix(slug, "[bot]"), "[BOT]"))
	}
	return nil
}

// readerOf is the reader of the app's records in owner/repo: the account Clarify writes
// as there and what its comments must carry (the rule above), read once per repository.
func (c *Client) readerOf(ctx context.Context, owner, repo string) (ledger.Reader, error) {
	key := strings.ToLower(owner + "/" + repo)
	c.mu.Lock()
	r, ok := c.readers[key]
	c.mu.Unlock()
	if ok {
		return r, nil
	}
	cfg, err := c.repoConfig(ctx, owner, repo)
	if err != nil {
		return r, err
	}
	keys := cfg.VerifyKeys
	slug := c.slug
	switch {
	case slug == "" && len(keys) > 0:
		slug = wire.ActionsSlug
	case slug == "":
		slug = c.defaultSlug
	}
	r = ledger.Reader{Bot: ledger.BotLoginOf(slug), Unchecked: true}
	if slug == wire.ActionsSlug {
		if len(keys) == 0 {
			return r, ErrNoVerifyKey
		}
		r.Public = keys
	}
	c.mu.Lock()
	c.readers[key] = r
	c.mu.Unlock()
	return r, nil
}

// repoConfig reads owner/repo's config on its default branch, once per repository (its
// verify_keys say whom to believe there, its roles and labels whom a question waits on and
// how its issues are labelled); the defaults when there is no config.
func (c *Client) repoConfig(ctx context.Context, owner, repo string) (repoconfig.Config, error) {
	key := strings.ToLower(owner + "/" + repo)
	if cfg, ok := c.configs.Load(key); ok {
		return cfg.(repoconfig.Config), nil
	}
	file, _, _, err := c.gh.Repositories.GetContents(ctx, owner, repo, configPath, nil)
	switch {
	case ghtransport.IsStatus(err, http.StatusNotFound):
		c.configs.Store(key, repoconfig.Default())
		return repoconfig.Default(), nil
	case err != nil:
		return repoconfig.Config{}, fmt.Errorf("read %s of %s/%s (whom Clarify writes as there): %w", configPath, owner, repo, err)
	case file == nil:
		return repoconfig.Config{}, fmt.Errorf("%s of %s/%s is a directory, not Clarify's config", configPath, owner, repo)
	}
	text, err := file.GetContent()
	if err != nil {
		return repoconfig.Config{}, fmt.Errorf("read %s of %s/%s: %w", configPath, owner, repo, err)
	}
	cfg, err := repoconfig.Parse([]byte(text))
	if err != nil {
		return repoconfig.Config{}, fmt.Errorf("%s of %s/%s has mistakes (bot config check shows them), so whom Clarify writes as there is not known: %w",
			configPath, owner, repo, err)
	}
	c.configs.Store(key, cfg)
	return cfg, nil
}

// otherOf is, for a read that ends (more false) with no status comment by the account
// believed, what unverifiable finds among the issue's comments, or nil. It lists the
// issue's comments, which no read does, but only once, for the answer.
func (c *Client) otherOf(ctx context.Context, issue clarify.IssueRef, snap snapshot, more bool) *Error {
	if more || snap.ok {
		return nil
	}
	comments, err := ledger.ListComments(ctx, c.gh, issue.Owner, issue.Repo, issue.Number)
	if err != nil {
		return nil // the error this would add to is the one the caller reports
	}
	return unverifiable(snap.reader, issue, comments)
}

// unverifiable is the one diagnosis of blocks that claim to be Clarify's but that the
// client cannot verify, every door's, with the fix (nil: none among comments):
//   - Clarify's status comment, or a record of Clarify's, by another bot account than the
//     one believed: Clarify writes as that one here (the fix: --app, or verify_keys where
//     it is github-actions[bot]);
//   - a status comment of the believed shared account (github-actions[bot]) signed, but
//     under no key .github/clarify.yml lists: Clarify's workflow signs with another key
//     (the fix: the line `bot key public` prints).
//
// A person's comment never counts (anyone can type a block), nor an unsigned one of the
// shared account (Clarify signs all it writes there: one without is another workflow's).
// Only an App or a workflow of the repository writes as a bot, and a workflow can write
// a look-alike: the diagnosis never makes it believed, it only ends the wait with the fix.
func unverifiable(r ledger.Reader, issue clarify.IssueRef, comments []*github.IssueComment) *Error {
	for _, cm := range comments {
		login, body := cm.GetUser().GetLogin(), cm.GetBody()
		_, record := render.ReadRecord(body)
		switch {
		case !strings.HasSuffix(strings.ToLower(login), "[bot]") || r.Owns(issue, cm):
		case !ledger.IsLogin(cm.GetUser(), r.Bot) && (render.IsStatus(body) || record):
			fix := "give --app " + strings.TrimSuffix(login, "[bot]") + " (or CLARIFY_APP_SLUG)"
			if strings.EqualFold(login, ledger.ActionsLogin) {
				fix = addKeyFix + ", and give no --app or CLARIFY_APP_SLUG"
			}
			return &Error{Code: clarify.CodeCannotVerify, Msg: fmt.Sprintf("here Clarify writes as %s, not %s: its comment %d in %s is by %s; %s",
				login, r.Bot, cm.GetID(), issue, login, fix)}
		case len(r.Public) > 0 && render.IsStatus(body) && render.Unsigned(body) != body:
			return &Error{Code: clarify.CodeCannotVerify, Msg: fmt.Sprintf("the status comment %d of %s in %s is signed, but under no key "+
				".github/clarify.yml lists (verify_keys): if Clarify's workflow wrote it, it signs with another CLARIFY_LEDGER_KEY than "+
				"the one listed; %s (beside the old one while rotating)", cm.GetID(), r.Bot, issue, addKeyFix)}
		}
	}
	return nil
}
