package render

import (
	"strings"
)

// Mirror returns the comment that stands in an issue for a command sent through
// repository_dispatch, which has no comment of its own: who sent it, the command as a
// comment would have said it, and the people such a comment would have notified (a round
// leaves them out, taking them as told). block is the signed copy of the command that the
// app reads back; the quote is for people, so nothing in it can act as markup of the app's.
func Mirror(sender, command string, mention []string, block, key string) string {
	var b strings.Builder
	if to := strings.TrimPrefix(strings.TrimSpace(sender), "@"); validHandle(to) && !strings.Contains(to, "/") {
		b.WriteString("@" + to)
	} else {
		b.WriteString(login(sender))
	}
	b.WriteString(" via `repository_dispatch`, taken as their comment:\n\n")
	b.WriteString(quote(command, capEntry) + "\n")
	if m := mentions(mention); m != "" {
		b.WriteString("\ncc " + m + "\n")
	}
	b.WriteString("\n" + block + "\n")
	return finish(b.String(), key, Record{V: RecordVersion, Kind: "dispatch"})
}
