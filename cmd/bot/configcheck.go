package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/repoconfig"
)

// configCheckUsage is the usage of `bot config check`.
const configCheckUsage = "usage: bot config check [-repo OWNER/REPO] FILE"

// configCmd checks a repository config file: `bot config check [-repo OWNER/REPO] FILE`.
// Offline by default; with -repo it also asks GitHub which of the file's label names
// people already put on issues.
func configCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "check" {
		return errors.New(configCheckUsage)
	}
	fs := flag.NewFlagSet("config check", flag.ContinueOnError)
	repo := fs.String("repo", "", "OWNER/REPO: also look up whether the file's label names are already on its issues (GITHUB_TOKEN authenticates)")
	api := fs.String("api", envOr("GITHUB_V3_API_URL", "https://api.github.com/"), "GitHub's REST API URL, for -repo (GITHUB_V3_API_URL)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New(configCheckUsage)
	}
	path := fs.Arg(0)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	cfg, err := repoconfig.Parse(b)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	p := cfg.Policy
	fmt.Fprintf(stdout, "%s: ok\n  roles: %d, routes: %d, max rounds: %d blocking / %d non-blocking, sla: %s, max per issue: %d\n",
		path, len(p.Roles), len(p.Routes), p.MaxRoundsBlocking, p.MaxRoundsNonBlocking, p.SLA, p.MaxPerIssue)
	return checkLabels(stdout, cfg.Labels, *repo, *api, os.Getenv("GITHUB_TOKEN"))
}

// checkLabels says, for each label the file names outside Clarify's own clarification:*
// names, that people may already use it. The app takes such a label off only where it put
// it on itself, but a maintainer should know before the app starts adding it to issues.
func checkLabels(stdout io.Writer, labels repoconfig.Labels, repo, api, token string) error {
	custom := customLabels(labels)
	if len(custom) == 0 {
		return nil
	}
	if repo == "" {
		for _, n := range custom {
			fmt.Fprintf(stdout, "  note: %s is %q, not one of Clarify's own names: if people already use it, Clarify takes it off only where it put it on itself\n", n.key, n.name)
		}
		fmt.Fprintln(stdout, "  (give -repo OWNER/REPO, with GITHUB_TOKEN set, to see which of these are already on its issues)")
		return nil
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return fmt.Errorf("-repo %q: write OWNER/REPO", repo)
	}
	client, err := ghtransport.TokenClient(api, token)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, n := range custom {
		// One issue is enough to know; state=all counts closed ones, where people used it too.
		issues, _, err := client.Issues.ListByRepo(ctx, owner, name, &github.IssueListByRepoOptions{
			Labels: []string{n.name}, State: "all", ListOptions: github.ListOptions{PerPage: 1},
		})
		if err != nil {
			return fmt.Errorf("look up issues labelled %q in %s: %w", n.name, repo, err)
		}
		if len(issues) == 0 {
			fmt.Fprintf(stdout, "  %s %q: on no issue of %s yet\n", n.key, n.name, repo)
			continue
		}
		fmt.Fprintf(stdout, "  warning: %s %q is already on issues of %s (#%d among them): people use it, and Clarify will add it too; it takes it off only where it put it on itself\n",
			n.key, n.name, repo, issues[0].GetNumber())
	}
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

// envOr returns the environment variable key, or def when it is unset or empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
