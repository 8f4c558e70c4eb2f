package main

import (
	"io"
	"os"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/cli"
)

const configCheckDetails = `Offline by default: it reads FILE, says what it sets, and lists every problem, one a
line with its line number (exit 1 when there is one). With -repo it also asks GitHub
(GITHUB_TOKEN authenticates) which of the file's label names people already put on that
repository's issues.`

// configCmd runs `bot config`, a group of one command so far: check.
func configCmd(args []string, std cli.Std) error {
	stdout := std.Out
	group := cli.New("config", "Work with a repository's .github/clarify.yml.",
		"bot config check [flags] FILE", "commands:\n  check  check a repository's .github/clarify.yml (bot config check -h)")
	return group.Run(args, stdout, map[string]func([]string) error{
		"check": func(args []string) error { return configCheck(args, stdout) },
	})
}

// configCheck checks a repository config file.
func configCheck(args []string, stdout io.Writer) error {
	cmd := cli.New("config check", "Check a repository's .github/clarify.yml before committing it.",
		"bot config check [flags] FILE", configCheckDetails)
	repo := cmd.Flags.String("repo", "", "OWNER/REPO: also look up whether the file's label names are already on its issues")
	api := cmd.Flags.String("api", cli.EnvOr("GITHUB_V3_API_URL", app.DefaultV3APIURL), "GitHub's REST API URL, for -repo; GITHUB_V3_API_URL sets the default")
	pos, err := cmd.Parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmd.Usagef("give one FILE, the config to check")
	}
	if _, _, ok := clarify.ParseRepo(*repo); *repo != "" && !ok {
		return cmd.Usagef("-repo %q: give the repository as OWNER/REPO", *repo)
	}
	cfg, err := app.CheckRepoConfig(stdout, pos[0])
	if err != nil {
		return err
	}
	return app.CheckLabels(stdout, cfg.Labels, *repo, *api, os.Getenv("GITHUB_TOKEN"))
}
