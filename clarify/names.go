package clarify

import (
	"fmt"
	"strings"
)

// GitHub's limits on names (https://github.com/join shows the login rule when it refuses one).
const (
	maxLoginLen    = 39
	maxTeamSlugLen = 100
)

// LoginProblem says why s is not a GitHub login, or "" when it is one. Organizations and
// configured role names follow the same rule, since a command addresses a role by its name,
// bare or as @name. The reason is worded to follow the name in a message: "alice_b has '_',
// and GitHub allows …".
func LoginProblem(s string) string {
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
		if !isAlnumRune(r) && r != '-' {
			return fmt.Sprintf("has %s, and GitHub allows only letters, digits and hyphens", describeRune(r))
		}
	}
	return ""
}

// TeamSlugProblem says why s is not the slug of a GitHub team, or "" when it is one; the
// slug is the team's name as its URL has it, so it is stricter than the name.
func TeamSlugProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > maxTeamSlugLen:
		return fmt.Sprintf("is %d characters long, and GitHub allows at most %d", len(s), maxTeamSlugLen)
	}
	for _, r := range s {
		if !isAlnumRune(r) && r != '-' && r != '_' {
			return fmt.Sprintf("has %s, and a team's slug has only letters, digits, hyphens and underscores (as in its URL)", describeRune(r))
		}
	}
	return ""
}

// isAlnumRune is isASCIIAlnum for a rune: GitHub's names are ASCII, so any other letter is
// refused.
func isAlnumRune(r rune) bool { return r < 0x80 && isASCIIAlnum(byte(r)) }

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

// IsAppLogin reports whether login is an app's account ("name[bot]"), which GitHub gives
// every GitHub App and which no person's login can have.
func IsAppLogin(login string) bool {
	return strings.HasSuffix(strings.ToLower(login), "[bot]")
}

// Handle is a GitHub login ("alice", "ci-bot[bot]") or a team ("org/team"): whom the
// configuration names, and whom the app may write after an "@".
type Handle struct {
	// Login is a person's or an app's login ("name[bot]"); empty for a team.
	Login string
	// Org and Slug name a team.
	Org, Slug string
}

// Team reports whether h is a team.
func (h Handle) Team() bool { return h.Org != "" }

// ParseHandle reads "alice", "name[bot]" or "org/team", or says why s is none of them. An
// "@" in front is not taken off: a mention writes one of its own before the handle.
func ParseHandle(s string) (Handle, string) {
	if org, slug, ok := strings.Cut(s, "/"); ok {
		if why := LoginProblem(org); why != "" {
			return Handle{}, "its organization " + why
		}
		if why := TeamSlugProblem(slug); why != "" {
			return Handle{}, "its team " + why
		}
		return Handle{Org: org, Slug: slug}, ""
	}
	if why := LoginProblem(strings.TrimSuffix(s, "[bot]")); why != "" {
		return Handle{}, why
	}
	return Handle{Login: s}, ""
}
