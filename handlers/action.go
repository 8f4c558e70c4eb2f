package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/appconfig"

	"github.com/clarify-app/clarify/clarify"
)

// What `bot action` (internal/action) needs of the handlers beside their Handle methods:
// its scheduled run visits issues one by one, as the sweep does, with the workflow's
// client rather than an installation's.

// RunIssue runs one issue as the sweep visits it: any comment past the ledger's cursor,
// the deadlines passed, and the close of a closed issue whose close no run applied. It
// returns when the issue is next due (zero: never, until something happens in it).
func (b *Base) RunIssue(ctx context.Context, client *github.Client, owner, repo string, is *github.Issue) (time.Time, error) {
	ref := issueRef{Owner: owner, Repo: repo, Number: is.GetNumber()}
	saved, err := b.run(ctx, client, ref, sweepTrigger(is))
	if err != nil {
		return time.Time{}, err
	}
	return b.nextDue(ref, saved), nil
}

// FlushDashboards writes the dashboards the run noted: a workflow's process ends with its
// run, so it writes at the end what the server's sweep would write within the minute.
func (b *Base) FlushDashboards(ctx context.Context) { b.flushDashboards(ctx) }

// HasCommand reports whether a comment holds a command, or something meant as one that
// deserves a refusal: what makes an issue worth a run when nothing else does.
func HasCommand(body string) bool { return hasCommand(body) }

// MayHaveStanding reports whether a listed comment's author may be someone whose command
// the fold takes, as far as the listing tells with no request: an account that may have
// write access (its author_association), a bot (an agent; a bot comments only where its app
// is installed), or a login the repository's roles list. Anyone else is a drive-by in an
// issue where nothing of theirs is open (the issues with something open carry the active
// label and are run anyway), so a scheduled run does not read the issue for their command.
func MayHaveStanding(c *github.IssueComment, p clarify.Policy) bool {
	u := c.GetUser()
	return mayWrite(c.GetAuthorAssociation()) || u.GetType() == "Bot" || p.RoleOf(u.GetLogin()) != ""
}

// NewRepoConfigLoader is a ConfigLoader that reads the repository's own file only, not the
// organisation's default in its .github repository: a workflow's GITHUB_TOKEN reaches no
// other repository, so that look-up could only cost a request and answer 404.
func NewRepoConfigLoader(ttl time.Duration, now func() time.Time) *ConfigLoader {
	l := newConfigLoader(ttl, now, appconfig.WithOwnerDefault("", nil))
	l.oneRepo = true
	return l
}
