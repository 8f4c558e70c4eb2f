package clarify

import "strings"

// Refuse turns a comment away without applying it: the ledger only moves its cursor past
// the comment, and the commenter gets a refusal that says what was wrong and what to type
// instead. The handlers use it for what only they can see, such as a ledger that has no
// room left in its comment.
func Refuse(l Ledger, ev Event, problem, try string) Result {
	a := applier{l: l.Clone(), ev: ev}
	if ev.CommentID > a.l.Cursor {
		a.l.Cursor = ev.CommentID
	}
	line := strings.TrimSpace(ev.Body)
	if cmd, err := Parse(ev.Body); err == nil && cmd.Line != "" {
		line = cmd.Line
	} else if first, _, _ := strings.Cut(line, "\n"); first != "" {
		line = first
	}
	a.refuse(CodeNoRoom, line, problem, try)
	return Result{Ledger: a.l, Effects: a.effects, Ignored: a.ignored}
}

// OpenText counts the bytes of text the open clarifications of l carry (questions,
// answers, options, topics): what a ledger cannot archive away to make room.
func OpenText(l Ledger) int {
	n := 0
	for _, c := range l.Clarifications {
		if !c.Status.Open() {
			continue
		}
		n += len(c.Topic) + len(c.Ref) + len(c.State)
		for _, o := range c.Options {
			n += len(o.Text)
		}
		for _, e := range c.Thread {
			n += len(e.Text)
		}
	}
	return n
}
