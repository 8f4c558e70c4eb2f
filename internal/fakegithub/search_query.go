package fakegithub

import (
	"strings"
	"time"
)

// searchFilter is a search query read: the qualifiers the fake knows. Labels are all
// required; repositories, organisations and users are alternatives, as on GitHub.
// https://docs.github.com/en/search-github/searching-on-github/searching-issues-and-pull-requests
type searchFilter struct {
	labels             []string
	repos, orgs, users []string
	state              string // "open", "closed" or "" (either)
	kind               string // "issue", "pr" or "" (either)
	after              time.Time
	afterOrAt          bool
	before             time.Time
	beforeOrAt         bool
}

// searchTerms splits a query on spaces outside double quotes, the quotes dropped.
func searchTerms(q string) []string {
	var terms []string
	var b strings.Builder
	quoted := false
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ' ' && !quoted:
			if b.Len() > 0 {
				terms = append(terms, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		terms = append(terms, b.String())
	}
	return terms
}

// parseSearch reads q; bad says what the fake cannot search for.
func parseSearch(q string) (f searchFilter, bad string) {
	terms := searchTerms(q)
	if len(terms) == 0 {
		return f, "the query is empty"
	}
	for _, t := range terms {
		name, value, ok := strings.Cut(t, ":")
		if !ok || value == "" {
			return f, "the in-memory GitHub searches no text: " + t
		}
		if msg := f.add(strings.ToLower(name), value); msg != "" {
			return f, msg
		}
	}
	return f, ""
}

// add takes one qualifier.
func (f *searchFilter) add(name, value string) string {
	v := strings.ToLower(value)
	switch name {
	case "label":
		f.labels = append(f.labels, v)
	case "repo":
		f.repos = append(f.repos, v)
	case "org":
		f.orgs = append(f.orgs, v)
	case "user":
		f.users = append(f.users, v)
	case "state":
		return f.is(v)
	case "type":
		return f.is(map[string]string{"issue": "issue", "pr": "pr"}[v])
	case "is":
		return f.is(v)
	case "created":
		return f.created(value)
	default:
		return "the in-memory GitHub does not know the qualifier " + name + ":"
	}
	return ""
}

// is takes is:open|closed|issue|pr.
func (f *searchFilter) is(v string) string {
	switch v {
	case "open", "closed":
		f.state = v
	case "issue":
		f.kind = "issue"
	case "pr", "pull-request":
		f.kind = "pr"
	default:
		return "the in-memory GitHub does not know is:" + v
	}
	return ""
}

// created takes created:>=T, >T, <=T, <T, a date or a time.
func (f *searchFilter) created(v string) string {
	op := ""
	for _, p := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			op, v = p, rest
			break
		}
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, v); err != nil {
			return "created: takes a date (YYYY-MM-DD) or a time (YYYY-MM-DDTHH:MM:SSZ): " + v
		}
	}
	switch op {
	case ">=", ">":
		f.after, f.afterOrAt = t, op == ">="
	case "<=", "<":
		f.before, f.beforeOrAt = t, op == "<="
	default:
		return "the in-memory GitHub takes created: with >=, >, <= or <"
	}
	return ""
}

// repoMatches reports whether r is among the repositories, organisations and users named
// (any of them), or none is named.
func (f searchFilter) repoMatches(r *repository) bool {
	if len(f.repos)+len(f.orgs)+len(f.users) == 0 {
		return true
	}
	owner := key(r.owner)
	return contains(f.repos, key(r.fullName())) || contains(f.orgs, owner) || contains(f.users, owner)
}

// issueMatches reports whether is has every label and is in the state, kind and time asked.
func (f searchFilter) issueMatches(is *issue) bool {
	for _, l := range f.labels {
		if !is.hasLabel(l) {
			return false
		}
	}
	switch {
	case f.state != "" && is.state != f.state,
		f.kind == "issue" && is.pullRequest, f.kind == "pr" && !is.pullRequest:
		return false
	}
	created := is.created.Truncate(time.Second)
	if !f.after.IsZero() && (created.Before(f.after) || !f.afterOrAt && created.Equal(f.after)) {
		return false
	}
	if !f.before.IsZero() && (created.After(f.before) || !f.beforeOrAt && created.Equal(f.before)) {
		return false
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
