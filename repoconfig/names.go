package repoconfig

import (
	"fmt"
	"strings"
)

// GitHub's limits on names (https://github.com/join shows the login rule when it refuses one).
const (
	maxLoginLen = 39
	maxSlugLen  = 100
	maxLabelLen = 50
)

// handle is a login or a team as written in the config.
type handle struct {
	login     string // without @; "name[bot]" for a GitHub App
	org, slug string // set for a team
}

func (h handle) team() bool { return h.org != "" }

// parseHandle reads "alice", "@alice", "name[bot]", "@org/team" or "org/team", or says why s
// is none of them.
func parseHandle(s string) (handle, string) {
	name := strings.TrimPrefix(s, "@")
	if org, slug, ok := strings.Cut(name, "/"); ok {
		if why := loginProblem(org); why != "" {
			return handle{}, "its organization " + why
		}
		if why := slugProblem(slug); why != "" {
			return handle{}, "its team " + why
		}
		return handle{org: org, slug: slug}, ""
	}
	if why := loginProblem(strings.TrimSuffix(name, "[bot]")); why != "" {
		return handle{}, why
	}
	return handle{login: name}, ""
}

// loginProblem says why s is not a GitHub login (or organization, or role name), or "".
// GitHub allows letters, digits and single hyphens, not at either end, at most 39 of them.
func loginProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > maxLoginLen:
		return fmt.Sprintf("is %d characters long, and GitHub allows at most %d", len(s), maxLoginLen)
	case s[0] == '-' || s[len(s)-1] == '-':
		return "starts or ends with a hyphen, which GitHub does not allow"
	case strings.Contains(s, "--"):
		return "has two hyphens in a row, which GitHub does not allow"
	}
	for _, r := range s {
		if !isAlnum(r) && r != '-' {
			return fmt.Sprintf("has %s, and GitHub allows only letters, digits and hyphens", describeRune(r))
		}
	}
	return ""
}

// slugProblem says why s is not a team slug (letters, digits, hyphens, underscores), or "".
func slugProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > maxSlugLen:
		return fmt.Sprintf("is %d characters long, and GitHub allows at most %d", len(s), maxSlugLen)
	}
	for _, r := range s {
		if !isAlnum(r) && r != '-' && r != '_' {
			return fmt.Sprintf("has %s, and a team's slug has only letters, digits, hyphens and underscores (as in its URL)", describeRune(r))
		}
	}
	return ""
}

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// describeRune names a character for a message: a space is easy to miss inside quotes.
func describeRune(r rune) string {
	switch r {
	case ' ':
		return "a space"
	case '/':
		return "a /"
	}
	return fmt.Sprintf("%q", r)
}
