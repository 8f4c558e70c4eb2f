package repoconfig

import (
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// maxLabelLen is GitHub's limit on a label's name, in characters.
const maxLabelLen = 50

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
		if why := clarify.LoginProblem(org); why != "" {
			return handle{}, "its organization " + why
		}
		if why := clarify.TeamSlugProblem(slug); why != "" {
			return handle{}, "its team " + why
		}
		return handle{org: org, slug: slug}, ""
	}
	if why := clarify.LoginProblem(strings.TrimSuffix(name, "[bot]")); why != "" {
		return handle{}, why
	}
	return handle{login: name}, ""
}

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
