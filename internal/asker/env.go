package asker

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/clarify-app/clarify/internal/ghtransport"
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
// what `gh auth token --hostname HOST` prints for the host whose API the client reaches
// (APIFromEnv), so that gh's token for one host never goes to another's API.
func TokenFromEnv(getenv func(string) string) (token, source string, err error) {
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN"} {
		if t := strings.TrimSpace(getenv(name)); t != "" {
			return t, name, nil
		}
	}
	_, host, err := APIFromEnv(getenv)
	if err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "gh", "auth", "token", "--hostname", host).Output()
	if t := strings.TrimSpace(string(out)); err == nil && t != "" {
		return t, "gh", nil
	}
	return "", "", fmt.Errorf("no token: set GITHUB_TOKEN or GH_TOKEN, or log in with `gh auth login --hostname %s`", host)
}

// APIFromEnv is GitHub's REST API URL and the host it is the API of: GITHUB_API_URL (set in
// every Actions job), else GH_HOST's API (as gh reaches it), else github.com's. GH_HOST
// naming another host than GITHUB_API_URL's is an error that names both: a token is for one
// host, and goes to that host's API only.
func APIFromEnv(getenv func(string) string) (api, host string, err error) {
	api, ghHost := strings.TrimSpace(getenv("GITHUB_API_URL")), strings.TrimSpace(getenv("GH_HOST"))
	switch {
	case api == "" && ghHost == "":
		return ghtransport.DefaultAPIURL, "github.com", nil
	case api == "":
		return ghtransport.APIOf(ghHost), ghtransport.NormalHost(ghHost), nil
	}
	if host, err = ghtransport.HostOfAPI(api); err != nil {
		return "", "", fmt.Errorf("GITHUB_API_URL: %w", err)
	}
	if ghHost != "" && ghtransport.NormalHost(ghHost) != host {
		return "", "", fmt.Errorf("GH_HOST is %s but GITHUB_API_URL (%s) is the API of %s: a token of one host is never sent to "+
			"another's API; unset one, or make them name the same host", ghHost, api, host)
	}
	return api, host, nil
}

// CommentStartsNoRun reports whether an ask's comment might start no run of Clarify: the
// caller is a workflow's own token, whose comments GitHub starts no workflow for, so
// Clarify running as a workflow would never see them. Such an ask goes as a
// repository_dispatch, which GitHub does start a run for, and which Clarify as an App
// takes too, so the app's slug (which may be found only later) does not matter.
//
// The workflow's token is recognised as a job hands it on: in a job (GITHUB_ACTIONS=true),
// given in GITHUB_TOKEN or in GH_TOKEN (GitHub's documented way to give gh a token; gh's
// GH_ENTERPRISE_TOKEN and GITHUB_ENTERPRISE_TOKEN for a GitHub Enterprise Server host), and
// an installation token (ghs_), as the job's token always is. An App's installation token
// given so asks by dispatch too, which starts runs as well.
// https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#using-the-github_token-in-a-workflow
// https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/using-github-cli-in-workflows
func CommentStartsNoRun(getenv func(string) string, token, source string) bool {
	return getenv("GITHUB_ACTIONS") == "true" && slices.Contains(jobTokenVars, source) && strings.HasPrefix(token, "ghs_")
}

// jobTokenVars are the variables a job hands a token on in, to bot and to gh.
var jobTokenVars = []string{"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}

// remoteRe takes HOST, OWNER and REPO out of a GitHub remote's URL: https (a port kept, as
// the web host has it), ssh:// (its port is ssh's, not the host's) or scp-like.
var remoteRe = regexp.MustCompile(`^(?:(?:https?)://(?:[^@/]+@)?([^/]+)|ssh://(?:[^@/]+@)?([^/:]+)(?::\d+)?|(?:[^@/:]+@)?([^/:]+):)/?` +
	`([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+?)(?:\.git)?/?$`)

// RepoFromEnv is the repository an MCP tool call means when it names none: CLARIFY_REPO
// (OWNER/REPO, or HOST/OWNER/REPO), else the origin remote of the git repository in dir; ""
// when neither says. A repository on another host than the API's (APIFromEnv) is an error
// that names both, rather than that host's repository asked for on the API's.
func RepoFromEnv(getenv func(string) string, dir string) (string, error) {
	repo := strings.TrimSpace(getenv("CLARIFY_REPO"))
	if repo == "" {
		cmd := exec.Command("git", "config", "--get", "remote.origin.url")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return "", nil
		}
		if repo = repoOfRemote(strings.TrimSpace(string(out))); repo == "" {
			return "", nil
		}
	}
	parts := strings.Split(repo, "/")
	if len(parts) != 3 {
		return repo, nil
	}
	api, host, err := APIFromEnv(getenv)
	if err != nil {
		return "", err
	}
	if ghtransport.NormalHost(parts[0]) != host {
		return "", fmt.Errorf("the repository %s is on %s, but the API is %s's (%s): set GH_HOST or GITHUB_API_URL to %s's, "+
			"or CLARIFY_REPO", repo, parts[0], host, api, parts[0])
	}
	return parts[1] + "/" + parts[2], nil
}

// repoOfRemote is HOST/OWNER/REPO of a remote's URL, "" when it names none.
func repoOfRemote(url string) string {
	m := remoteRe.FindStringSubmatch(url)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + m[3] + "/" + m[4] + "/" + m[5]
}
