package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// Escalation returns the comment announcing that c escalated: it @mentions each login or
// "org/team" of mention (configured maintainers, so the pings are meant), says why, shows
// both sides' last positions and the options, and gives the command that settles it.
func Escalation(c clarify.Clarification, reason string, mention []string, key string) string {
	cid := id(c.ID)
	var b strings.Builder
	b.WriteString("### ⚠️ Escalated: " + cid)
	if c.Topic != "" {
		b.WriteString(" · " + inline(c.Topic, capTopic))
	}
	b.WriteString("\n\n")

	if m := mentions(mention); m != "" {
		b.WriteString(m + ": this clarification needs a decision.\n\n")
	}
	fmt.Fprintf(&b, "**%s** · %s · round %s · %s\n\n", sides(c), cid, rounds(c.Round, c.MaxRounds), blocking(c))
	if r := inline(reason, capReason); r != "" {
		b.WriteString("**Why:** " + r + "\n\n")
	}

	if q := lastEntry(c, clarify.KindQuestion); q != nil {
		fmt.Fprintf(&b, "**Last question** (%s, round %d):\n\n%s\n\n", login(q.Author), q.Round, quote(q.Text, capPosition))
	}
	if a := lastEntry(c, clarify.KindAnswer); a != nil {
		fmt.Fprintf(&b, "**Last answer** (%s, round %d%s):\n\n%s\n\n", login(a.Author), a.Round, editedNote(*a, ", "), quote(a.Text, capPosition))
	} else {
		b.WriteString("**Last answer:** none yet.\n\n")
	}
	if len(c.Options) > 0 {
		b.WriteString("**Options**\n\n" + options(c) + "\n")
	}
	fmt.Fprintf(&b, "To settle it: `/clarify resolve %s <decision>`\n", cid)
	return finish(b.String(), key, recordOf("escalation", c, c.Round))
}

// mentions writes the live @mentions of an escalation, each handle once. Entries come
// from configuration, which should reject a malformed one; one that slips through is left
// out rather than echoed, since it could be anything and must not become Markdown.
func mentions(names []string) string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimPrefix(strings.TrimSpace(n), "@")
		if !validHandle(n) || seen[strings.ToLower(n)] {
			continue
		}
		seen[strings.ToLower(n)] = true
		if len(out) == maxMentions {
			break
		}
		out = append(out, "@"+n)
	}
	return strings.Join(out, " ")
}

// validHandle reports whether s is a GitHub login ("alice", "ci-bot[bot]") or "org/team",
// by the rules the parser holds, so nothing else is ever written after an "@".
func validHandle(s string) bool {
	_, why := clarify.ParseHandle(s)
	return why == ""
}
