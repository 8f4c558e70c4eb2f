package render

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/clarify-app/clarify/clarify"
)

// LedgerText is a ledger as a person reads it in a terminal (bot ledger): a head line for
// the issue, each clarification with its thread and decision, then the assumption log.
// Everything a user typed is made printable, so that it cannot drive the terminal.
func LedgerText(issue string, l clarify.Ledger) string {
	var b strings.Builder
	head := fmt.Sprintf("%s · %s · %s · ledger rev %d", issue, Counted(len(l.Clarifications), "clarification"), Counted(len(l.Assumptions), "assumption"), l.Rev)
	if n := len(l.Archives); n > 0 {
		head += " · " + Counted(n, "archive comment")
	}
	if l.Closed {
		head += " · issue closed"
	}
	b.WriteString(head + "\n")
	for _, c := range l.Clarifications {
		b.WriteString("\n")
		clarificationText(&b, c)
	}
	if len(l.Assumptions) > 0 {
		b.WriteString("\nassumptions\n")
		for _, a := range l.Assumptions {
			b.WriteString(assumptionLine(a) + "\n")
		}
	}
	return b.String()
}

// clarificationText writes one clarification: its title, who asks whom, its times, its
// ask's fields, its thread and its decision.
func clarificationText(b *strings.Builder, c clarify.Clarification) {
	title := c.ID
	if c.Topic != "" {
		title += " · " + oneLineText(c.Topic)
	}
	b.WriteString(title + "\n")
	blocking := "non-blocking"
	if c.Blocking {
		blocking = "blocking"
	}
	round := strconv.Itoa(c.Round)
	if c.MaxRounds > 0 {
		round += "/" + strconv.Itoa(c.MaxRounds)
	}
	fmt.Fprintf(b, "  %s → %s · %s · round %s · %s\n", askerText(c.Asker), targetText(c.Target), c.Status, round, blocking)
	if when := clarificationTimes(c); when != "" {
		fmt.Fprintf(b, "  %s\n", when)
	}
	if c.Type != "" {
		fmt.Fprintf(b, "  type: %s\n", oneLineText(c.Type))
	}
	for _, o := range c.Options {
		mark := ""
		if o.Key == c.Fallback {
			mark = " (fallback)"
		}
		fmt.Fprintf(b, "  option %s) %s%s\n", oneLineText(o.Key), oneLineText(o.Text), mark)
	}
	for _, e := range c.Evidence {
		fmt.Fprintf(b, "  evidence: %s\n", oneLineText(e))
	}
	for _, e := range c.Thread {
		line := fmt.Sprintf("  round %d · %s · %s · %s", e.Round, e.Kind, cmp.Or(oneLineText(e.Author), "Clarify"), timeText(e.At))
		if e.Edited {
			line += " · edited before it was read"
		}
		b.WriteString(line + "\n")
		b.WriteString(indentText(printableText(e.Text), "      ") + "\n")
	}
	if c.Resolution != "" {
		fmt.Fprintf(b, "  decision: %s\n", oneLineText(c.Resolution))
	}
}

// clarificationTimes is when it was asked, goes stale (while open) and was resolved.
func clarificationTimes(c clarify.Clarification) string {
	var when []string
	for _, t := range []struct {
		what string
		at   time.Time
	}{{"asked", c.CreatedAt}, {"stale at", c.StaleAfter}, {"resolved", c.ResolvedAt}} {
		if !t.at.IsZero() && (t.what != "stale at" || c.Status.Open()) {
			when = append(when, t.what+" "+timeText(t.at))
		}
	}
	return strings.Join(when, " · ")
}

// assumptionLine is one entry of the assumption log.
func assumptionLine(a clarify.Assumption) string {
	line := fmt.Sprintf("  %s · %s · %s", timeText(a.At), cmp.Or(oneLineText(a.Author), "Clarify"), oneLineText(a.Decision))
	if a.Confidence != "" {
		line += " · confidence " + oneLineText(a.Confidence)
	}
	if a.Risk != "" {
		line += " · risk " + oneLineText(a.Risk)
	}
	if a.Source == "timeout_assumed" {
		line += " · fallback taken on timeout"
	}
	if a.Clarification != "" {
		line += " · " + oneLineText(a.Clarification)
	}
	return line
}

// targetText is the target as one addresses it in /clarify, and as AgentX files write it.
func targetText(t clarify.Target) string {
	if t.Kind == clarify.TargetLogin || t.Kind == clarify.TargetTeam {
		return "@" + oneLineText(t.Name)
	}
	return cmp.Or(oneLineText(t.Name), "?")
}

// askerText is the asker as "role (login)", or whichever of the two it has.
func askerText(p clarify.Party) string {
	switch {
	case p.Role != "" && p.Login != "":
		return oneLineText(p.Role) + " (" + oneLineText(p.Login) + ")"
	case p.Role != "":
		return oneLineText(p.Role)
	}
	return cmp.Or(oneLineText(p.Login), "?")
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return "(no time)"
	}
	return t.UTC().Format(time.RFC3339)
}

// Counted is n of what, in the plural unless n is 1: "1 comment", "3 comments".
func Counted(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// printableText replaces the control characters of text anyone could have typed into an
// issue (an escape sequence would drive the reader's terminal; a bidi override would show
// text in another order than it is), keeping line breaks and tabs.
func printableText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) && !unicode.Is(unicode.Bidi_Control, r) {
			return r
		}
		return '\uFFFD'
	}, strings.ReplaceAll(s, "\r\n", "\n"))
}

// oneLineText is printableText text on one line.
func oneLineText(s string) string {
	return strings.Join(strings.Fields(printableText(s)), " ")
}

func indentText(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}
