package main

import (
	"errors"
	"flag"
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/app"
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
	api := fs.String("api", envOr("GITHUB_V3_API_URL", app.DefaultV3APIURL), "GitHub's REST API URL, for -repo (GITHUB_V3_API_URL)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New(configCheckUsage)
	}
	cfg, err := app.CheckRepoConfig(stdout, fs.Arg(0))
	if err != nil {
		return err
	}
	return app.CheckLabels(stdout, cfg.Labels, *repo, *api, os.Getenv("GITHUB_TOKEN"))
}

// envOr returns the environment variable key, or def when it is unset or empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
