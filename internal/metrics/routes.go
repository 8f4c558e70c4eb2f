package metrics

import (
	"strings"
)

// routes are the GitHub REST routes the app calls, in GitHub's documentation's spelling,
// so that the route label reads like the docs. A parameter named *_id or *_number only
// takes a number, which tells /issues/comments from /issues/{issue_number}; {path} takes
// the rest of the path.
var routes = compile(
	"/app",
	"/app/installations",
	"/app/installations/{installation_id}",
	"/app/installations/{installation_id}/access_tokens",
	"/app/hook/deliveries",
	"/app/hook/deliveries/{delivery_id}/attempts",
	"/installation/repositories",
	"/orgs/{org}/installation",
	"/users/{username}/installation",
	"/orgs/{org}/teams/{team_slug}/memberships/{username}",
	"/repos/{owner}/{repo}",
	"/repos/{owner}/{repo}/installation",
	"/repos/{owner}/{repo}/issues",
	"/repos/{owner}/{repo}/issues/comments",
	"/repos/{owner}/{repo}/issues/comments/{comment_id}",
	"/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
	"/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions/{reaction_id}",
	"/repos/{owner}/{repo}/issues/{issue_number}",
	"/repos/{owner}/{repo}/issues/{issue_number}/comments",
	"/repos/{owner}/{repo}/issues/{issue_number}/labels",
	"/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
	"/repos/{owner}/{repo}/issues/{issue_number}/reactions",
	"/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by",
	"/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}",
	"/repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking",
	"/repos/{owner}/{repo}/issues/{issue_number}/sub_issues",
	"/repos/{owner}/{repo}/issues/{issue_number}/sub_issue",
	"/repos/{owner}/{repo}/issues/{issue_number}/parent",
	"/repos/{owner}/{repo}/labels",
	"/repos/{owner}/{repo}/labels/{name}",
	"/repos/{owner}/{repo}/collaborators/{username}/permission",
	"/repos/{owner}/{repo}/contents/{path}",
	"/repos/{owner}/{repo}/check-runs",
	"/repos/{owner}/{repo}/check-runs/{check_run_id}",
	"/repos/{owner}/{repo}/commits/{ref}/check-runs",
	"/repos/{owner}/{repo}/pulls/{pull_number}",
	"/repos/{owner}/{repo}/dispatches",
	"/graphql",
)

// vocabulary is every literal segment of routes and a few more of GitHub's: the segments
// a path not in routes keeps. Any other segment is a parameter, a name or a number, and
// becomes a placeholder, so that no route the app starts calling can fill the label with
// repository or label names.
var vocabulary = func() map[string]bool {
	words := map[string]bool{"api": true, "v3": true, "events": true, "timeline": true, "assignees": true,
		"members": true, "teams": true, "pulls": true, "commits": true, "check-suites": true, "statuses": true,
		"git": true, "refs": true, "search": true, "rate_limit": true, "user": true, "hooks": true}
	for _, r := range routes {
		for _, s := range r {
			if !strings.HasPrefix(s, "{") {
				words[s] = true
			}
		}
	}
	return words
}()

// paramAfter names the placeholder of a segment that follows a literal which is always
// followed by a name (an owner, a label), whatever that name looks like.
var paramAfter = map[string]string{
	"orgs": "{org}", "users": "{username}", "teams": "{team_slug}", "memberships": "{username}",
	"collaborators": "{username}", "members": "{username}", "labels": "{name}", "commits": "{ref}",
}

func compile(templates ...string) [][]string {
	out := make([][]string, 0, len(templates))
	for _, t := range templates {
		out = append(out, strings.Split(strings.TrimPrefix(t, "/"), "/"))
	}
	return out
}

// Route maps a request's escaped path to its route template: one of the routes the app
// calls (`/repos/{owner}/{repo}/issues/{issue_number}/comments`), or, for any other, the
// path with every segment outside GitHub's vocabulary replaced by a placeholder. apiPath,
// the REST API base URL's path, is taken off first.
func Route(apiPath, escapedPath string) string {
	p := strings.TrimSuffix(apiPath, "/")
	if p != "" && strings.HasPrefix(escapedPath, p+"/") {
		escapedPath = escapedPath[len(p):]
	}
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	for _, r := range routes {
		if matches(r, segs) {
			return "/" + strings.Join(r, "/")
		}
	}
	return generic(segs)
}

func matches(route, segs []string) bool {
	for i, p := range route {
		if p == "{path}" && i == len(route)-1 {
			return i < len(segs)
		}
		if i >= len(segs) || segs[i] == "" {
			return false
		}
		if !strings.HasPrefix(p, "{") {
			if segs[i] != p {
				return false
			}
			continue
		}
		if (strings.HasSuffix(p, "_id}") || strings.HasSuffix(p, "_number}")) && !isNumber(segs[i]) {
			return false
		}
	}
	return len(route) == len(segs)
}

// generic templates a path the route table does not know.
func generic(segs []string) string {
	var b strings.Builder
	prev := "" // the last segment kept as it is
	for i := 0; i < len(segs); i++ {
		s, kept := segs[i], ""
		switch {
		case s == "repos" && i+2 < len(segs):
			b.WriteString("/repos/{owner}/{repo}")
			i += 2
		case paramAfter[prev] != "":
			b.WriteString("/" + paramAfter[prev])
		case isNumber(s):
			b.WriteString("/{id}")
		case vocabulary[s]:
			b.WriteString("/" + s)
			kept = s
		default:
			b.WriteString("/{param}")
		}
		prev = kept
	}
	return b.String()
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
