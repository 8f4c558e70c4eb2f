package asker

import (
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/wire"
)

// Env is what the doors take from where they run: the environment and the caller's token.
type Env struct {
	// Getenv reads the environment (os.Getenv).
	Getenv func(string) string
	// Token returns the caller's token and where it came from ("GITHUB_TOKEN", "GH_TOKEN",
	// "gh"): bot uses TokenFromEnv, the gh extension gh's own.
	Token func() (token, source string, err error)
}

// TokenFromEnv is the caller's token as bot finds it: GITHUB_TOKEN, else GH_TOKEN, else
// what `gh auth token` prints.
func TokenFromEnv(getenv func(string) string) (token, source string, err error) {
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		if t := strings.TrimSpace(getenv(name)); t != "" {
			return t, name, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "gh", "auth", "token").Output()
	if t := strings.TrimSpace(string(out)); err == nil && t != "" {
		return t, "gh", nil
	}
	return "", "", errors.New("no token: set GITHUB_TOKEN or GH_TOKEN, or log in with `gh auth login`")
}

// APIFromEnv is GitHub's REST API URL: GITHUB_API_URL (set in every Actions job), else
// github.com's.
func APIFromEnv(getenv func(string) string) string {
	if u := strings.TrimSpace(getenv("GITHUB_API_URL")); u != "" {
		return u
	}
	return ghtransport.DefaultAPIURL
}

// CommentStartsNoRun reports whether an ask's comment would start no run of Clarify:
// Clarify runs as a workflow in the repository (slug github-actions), and the caller is a
// workflow's own GITHUB_TOKEN (in a job, from GITHUB_TOKEN, an installation token), whose
// comments GitHub starts no workflow for. Such an ask goes as a repository_dispatch, which
// GitHub does start a run for.
// https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#using-the-github_token-in-a-workflow
func CommentStartsNoRun(getenv func(string) string, slug, token, source string) bool {
	return getenv("GITHUB_ACTIONS") == "true" && slug == wire.ActionsSlug && source == "GITHUB_TOKEN" &&
		strings.HasPrefix(token, "ghs_")
}

// remoteRe takes OWNER/REPO out of a GitHub remote's URL (https, ssh, scp-like).
var remoteRe = regexp.MustCompile(`[:/]([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+?)(?:\.git)?/?$`)

// RepoFromEnv is the repository an MCP tool call means when it names none: CLARIFY_REPO,
// else the origin remote of the git repository in dir. "" when neither says.
func RepoFromEnv(getenv func(string) string, dir string) string {
	if r := strings.TrimSpace(getenv("CLARIFY_REPO")); r != "" {
		return r
	}
	cmd := exec.Command("git", "config", "--get", "remote.origin.url")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return repoOfRemote(strings.TrimSpace(string(out)))
}

// repoOfRemote is OWNER/REPO of a remote's URL, "" when it names none.
func repoOfRemote(url string) string {
	m := remoteRe.FindStringSubmatch(url)
	if m == nil {
		return ""
	}
	return m[1] + "/" + m[2]
}
