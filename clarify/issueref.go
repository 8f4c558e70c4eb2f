package clarify

import (
	"fmt"
	"strconv"
	"strings"
)

// IssueRef names one issue as people write it on the command line, OWNER/REPO#N.
type IssueRef struct {
	Owner, Repo string
	Number      int
}

// ParseRepo reads OWNER/REPO; false when s is not one repository's name. It takes the
// characters GitHub allows and no more: an owner of letters, digits, '-' and '_', a name
// of those and '.', and never "." or "..", which would name a path rather than a
// repository in a URL built from it.
func ParseRepo(s string) (owner, repo string, ok bool) {
	owner, repo, ok = strings.Cut(s, "/")
	if !ok || !repoChars(owner, false) || !repoChars(repo, true) || repo == "." || repo == ".." {
		return "", "", false
	}
	return owner, repo, true
}

// repoChars reports whether s is non-empty and of the characters GitHub allows in an
// owner (dot false) or a repository's name (dot true).
func repoChars(s string, dot bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || dot && r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// ParseIssueRef reads OWNER/REPO#N (N a positive number); false when s is not one.
func ParseIssueRef(s string) (IssueRef, bool) {
	repo, num, ok := strings.Cut(s, "#")
	owner, name, ok2 := ParseRepo(repo)
	n, err := strconv.Atoi(num)
	if !ok || !ok2 || err != nil || n <= 0 {
		return IssueRef{}, false
	}
	return IssueRef{Owner: owner, Repo: name, Number: n}, true
}

// FullName is the issue's repository as OWNER/REPO, or "" when the ref names none.
func (r IssueRef) FullName() string {
	if r.Owner == "" {
		return ""
	}
	return r.Owner + "/" + r.Repo
}

// String writes the ref back as OWNER/REPO#N.
func (r IssueRef) String() string { return fmt.Sprintf("%s#%d", r.FullName(), r.Number) }
