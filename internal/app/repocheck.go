package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/repoconfig"
)

// CheckRepoConfig reads and checks a repository's .github/clarify.yml saved at path (bot
// config check), and says what it sets. The error of a broken file says how many problems
// it has, then lists them one a line, each with its line number.
func CheckRepoConfig(w io.Writer, path string) (repoconfig.Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return repoconfig.Config{}, err
	}
	cfg, err := repoconfig.Parse(b)
	if err != nil {
		return cfg, problemsError{path: path, err: err}
	}
	p := cfg.Policy
	fmt.Fprintf(w, "%s: ok\n  roles: %d, routes: %d, max rounds: %d blocking / %d non-blocking, sla: %s, max per issue: %d\n",
		path, len(p.Roles), len(p.Routes), p.MaxRoundsBlocking, p.MaxRoundsNonBlocking, p.SLA, p.MaxPerIssue)
	if cfg.Relations != "" {
		fmt.Fprintf(w, "  relations: %s: each blocking clarification opens a decision issue, %s, closed with the decision\n",
			cfg.Relations, relationShown[cfg.Relations])
	}
	if from := inheritShown(cfg.Decisions.Inherit); from != "" {
		fmt.Fprintf(w, "  decisions.inherit: the decisions of %s are offered too; this repository's own decision on a topic wins\n", from)
	}
	return cfg, nil
}

// inheritShown names the repository decisions.inherit takes decisions from, or "".
func inheritShown(inherit string) string {
	if inherit == repoconfig.OrgRepository {
		return "the organisation's " + repoconfig.OrgRepository + " repository"
	}
	return inherit
}

// relationShown says how each kind of relations: shows in GitHub's own model.
var relationShown = map[string]string{
	clarify.RelationBlockedBy: "which the issue is blocked by",
	clarify.RelationSubIssue:  "a sub-issue of the issue",
}

// CheckLabels says, for each label the file names outside Clarify's own clarification:*
// names, that people may already use it (bot config check -repo). The app takes such a
// label off only where it put it on itself, but a maintainer should know before the app
// starts adding it to issues. With no repo it notes them and says how to look them up;
// with one (OWNER/REPO), it looks each up in its issues through api with token.
func CheckLabels(w io.Writer, labels repoconfig.Labels, repo, api, token string) error {
	custom := customLabels(labels)
	if len(custom) == 0 {
		return nil
	}
	if repo == "" {
		for _, n := range custom {
			fmt.Fprintf(w, "  note: %s is %q, not one of Clarify's own names: if people already use it, Clarify takes it off only where it put it on itself\n", n.key, n.name)
		}
		fmt.Fprintln(w, "  (give -repo OWNER/REPO, with GITHUB_TOKEN set, to see which of these are already on its issues)")
		return nil
	}
	owner, name, ok := clarify.ParseRepo(repo)
	if !ok {
		return fmt.Errorf("-repo %q: write OWNER/REPO", repo)
	}
	client, err := ghtransport.TokenClient(api, token)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, n := range custom {
		if err := lookUpLabel(ctx, w, client, owner, name, n); err != nil {
			return err
		}
	}
	return nil
}

// lookUpLabel says whether a label is already on issues of owner/repo.
func lookUpLabel(ctx context.Context, w io.Writer, client *github.Client, owner, repo string, n namedLabel) error {
	full := owner + "/" + repo
	// One issue is enough to know; state=all counts closed ones, where people used it too.
	issues, _, err := client.Issues.ListByRepo(ctx, owner, repo, &github.IssueListByRepoOptions{
		Labels: []string{n.name}, State: "all", ListOptions: github.ListOptions{PerPage: 1},
	})
	if err != nil {
		return fmt.Errorf("look up issues labelled %q in %s: %w", n.name, full, err)
	}
	if len(issues) == 0 {
		fmt.Fprintf(w, "  %s %q: on no issue of %s yet\n", n.key, n.name, full)
		return nil
	}
	fmt.Fprintf(w, "  warning: %s %q is already on issues of %s (#%d among them): people use it, and Clarify will add it too; it takes it off only where it put it on itself\n",
		n.key, n.name, full, issues[0].GetNumber())
	return nil
}

// namedLabel is a label the file names, with the key that names it.
type namedLabel struct{ key, name string }

// customLabels are the labels the file names outside Clarify's own clarification:* names.
func customLabels(labels repoconfig.Labels) []namedLabel {
	var custom []namedLabel
	for _, n := range []namedLabel{
		{"labels.active", labels.Active}, {"labels.stale", labels.Stale}, {"labels.escalated", labels.Escalated},
	} {
		if !repoconfig.IsDefaultLabel(n.name) {
			custom = append(custom, n)
		}
	}
	return custom
}

// problemsError is a config file's problems as bot config check prints them.
type problemsError struct {
	path string
	err  error
}

func (e problemsError) Error() string {
	lines := repoconfig.Lines(e.err)
	noun := "problems"
	if len(lines) == 1 {
		noun = "problem"
	}
	return fmt.Sprintf("%s: %d %s\n  %s", e.path, len(lines), noun, strings.Join(lines, "\n  "))
}

func (e problemsError) Unwrap() error { return e.err }
