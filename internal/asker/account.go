package asker

import (
	"context"
	"errors"
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

// ErrNoVerifyKey refuses to believe a workflow that lists no public key to verify it by.
var ErrNoVerifyKey = errors.New("here Clarify writes as github-actions[bot], which every workflow of the repository " +
	"(and any agent in one) writes as too, so its comments are believed only when signed under a key that " +
	".github/clarify.yml lists, and it lists none: someone holding CLARIFY_LEDGER_KEY runs " +
	"`bot key public` and adds the line it prints (verify_keys) to .github/clarify.yml on the default branch")

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
func (c *Client) readerOf(ctx context.Context, owner, repo string) (ledger.LedgerReader, error) {
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
	r = ledger.LedgerReader{Bot: ledger.BotLoginOf(slug), Unchecked: true}
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

// otherOf is, for a wait that ends (more false) with no status comment by the account
// believed, the account Clarify writes as there instead (otherAccount), or nil. It lists
// the issue's comments, which no read does, but only once, for the error.
func (c *Client) otherOf(ctx context.Context, issue clarify.IssueRef, snap snapshot, more bool) error {
	if more || snap.ok {
		return nil
	}
	comments, err := ledger.ListComments(ctx, c.gh, issue.Owner, issue.Repo, issue.Number)
	if err != nil {
		return nil // the error this would add to is the one the caller reports
	}
	return otherAccount(snap.reader.Bot, comments)
}

// otherAccount names the account of a status comment of Clarify's that is not by the
// account believed, for the error of a read that found none: Clarify writes as that one
// there, and the flag or config that says so.
func otherAccount(bot string, comments []*github.IssueComment) error {
	for _, cm := range comments {
		login := cm.GetUser().GetLogin()
		if !render.IsStatus(cm.GetBody()) || strings.EqualFold(login, bot) || !strings.HasSuffix(login, "[bot]") {
			continue
		}
		fix := "--app " + strings.TrimSuffix(login, "[bot]") + " (or CLARIFY_APP_SLUG)"
		if strings.EqualFold(login, ledger.ActionsLogin) {
			fix = "verify_keys in .github/clarify.yml (`bot key public` prints the line), and no --app or CLARIFY_APP_SLUG"
		}
		return fmt.Errorf("here Clarify writes as %s, not %s: its status comment %d is by %s; give %s", login, bot, cm.GetID(), login, fix)
	}
	return nil
}
