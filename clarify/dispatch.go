package clarify

import (
	"slices"
	"strings"
)

// MentionedIn returns the handles (lower case, without "@", sorted) that GitHub would notify
// were body posted as a comment. A command that reaches the app without a comment of its
// own (a repository_dispatch) is mirrored by the app, which must notify just these: the
// round it opens leaves them out, as the comment would have told them already.
func MentionedIn(body string) []string {
	m := mentionedIn(body)
	out := make([]string, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}

// IsOutsider reports whether Apply would take a command of the actor's in l as a
// drive-by's, to be ignored without a word. A command that the app has to write down
// before Apply sees it (the mirror of a repository_dispatch) is checked with this first,
// so that an outsider cannot make the app write by that road either.
func IsOutsider(l Ledger, p Policy, a Actor) bool {
	ap := applier{l: l, p: p, ev: Event{Actor: a}}
	return !a.Self && strings.TrimSpace(a.Login) != "" && ap.outsider()
}
