package clarify

import (
	"slices"
	"strings"
)

// MirrorMentions returns the handles (lower case, without "@", sorted) that the mirror of a
// command sent without a comment of its own (a repository_dispatch) @mentions: those GitHub
// would notify were command posted as a comment, but its sender and an ask's target. The
// target hears of the ask from its round, which a run posts only once the issue carries its
// label, so that a reply made at once carries the label and starts a workflow's job
// (docs/workflow.md); the round leaves out the others, as the mirror told them already.
func MirrorMentions(command, sender string) []string {
	m := mentionedIn(command)
	delete(m, strings.ToLower(strings.TrimPrefix(sender, "@")))
	if cmd, err := Parse(command); err == nil && cmd.Kind == CmdAsk {
		delete(m, strings.ToLower(cmd.Target))
	}
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
