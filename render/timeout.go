package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// Ping returns the comment that nudges the awaited side of a clarification that went
// stale; who holds their logins and teams (real @mentions: being pinged is the point).
func Ping(c clarify.Clarification, who []string, key string) string {
	cid := id(c.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "**[%s]** Still waiting · %s · round %s · %s\n\n", sides(c), cid, rounds(c.Round, c.MaxRounds), blocking(c))
	if m := mentions(who); m != "" {
		b.WriteString(m + ": ")
	}
	if clarify.WaitingOn(c) == clarify.SideAsker {
		b.WriteString("the answer is in; the clarification waits for a follow-up or a decision.\n\n")
		fmt.Fprintf(&b, "`/clarify followup %s <question>` or `/clarify resolve %s <decision>`.", cid, cid)
		fmt.Fprintf(&b, " Without either by %s, it is escalated to the maintainers.", stamp(c.StaleAfter))
	} else {
		b.WriteString("this question has waited past its deadline.\n\n")
		if q := lastEntry(c, clarify.KindQuestion); q != nil {
			b.WriteString(quote(q.Text, capPosition) + "\n\n")
		}
		fmt.Fprintf(&b, "Reply in this issue, or `/respond %s <answer>`.", cid)
		if c.Fallback != "" && clarify.SettlesUnattended(c) {
			fmt.Fprintf(&b, " Without a reply by %s, the fallback **%s)** is taken.", stamp(c.StaleAfter), inline(c.Fallback, capWord))
		} else {
			fmt.Fprintf(&b, " Without a reply by %s, it is escalated to the maintainers.", stamp(c.StaleAfter))
		}
	}
	b.WriteString("\n")
	return finish(b.String(), key, recordOf("ping", c, c.Round))
}

// Timeout returns the comment announcing that a clarification was settled by its fallback
// after two SLA periods without a reply; the decision is logged as an assumption.
func Timeout(c clarify.Clarification, key string) string {
	cid := id(c.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "**[%s]** Resolved on timeout · %s\n\n", sides(c), cid)
	b.WriteString("No reply came within two SLA periods, so the fallback given with the question stands:\n\n")
	b.WriteString(quote(c.Resolution, capPosition) + "\n\n")
	b.WriteString("It is recorded in the assumption log as `timeout_assumed`. ")
	fmt.Fprintf(&b, "A maintainer can still change course with a new `/clarify` question.\n")
	return finish(b.String(), key, recordOf("timeout", c, c.Round))
}
