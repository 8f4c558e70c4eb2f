package render

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// Reply returns the comment answering a command: a refusal, the open clarifications of l,
// or one clarification's thread; it ends with Marker(key).
func Reply(r clarify.Reply, l clarify.Ledger, key string) string {
	var body string
	rec := Record{V: RecordVersion, Kind: string(r.Kind)}
	switch r.Kind {
	case clarify.ReplyList:
		body = list(l)
		for _, c := range l.Clarifications {
			if c.Status.Open() {
				rec.Open = append(rec.Open, c.ID)
			}
		}
	case clarify.ReplyShow:
		body = show(l, r.ID)
		if c, ok := l.Find(r.ID); ok {
			rec = recordOf(string(r.Kind), c, c.Round)
		}
	case clarify.ReplyStale:
		body = staleList(l)
	case clarify.ReplyStats:
		body = stats(l)
		if pc := clarify.Summarize(l).Precedents; pc != (clarify.PrecedentCounts{}) {
			rec.Precedents = &pc
		}
	default:
		// A refusal is the fail-closed default: an unknown kind still tells the user
		// something went wrong rather than posting nothing.
		body = refusal(r)
		rec = Record{V: RecordVersion, Kind: "refusal", Code: string(r.Code), Ref: r.Ref, Nonce: r.Nonce}
	}
	return finish(body, key, rec)
}

// refusal quotes the offending line, addresses the person who typed it (the one ping
// a reply makes, on purpose), says what was wrong and what to type instead.
func refusal(r clarify.Reply) string {
	var b strings.Builder
	if q := quote(r.Quote, capEntry); strings.Trim(q, "> \n") != "" {
		b.WriteString(q + "\n\n")
	}
	problem := prose(r.Problem)
	if problem == "" {
		problem = "That command could not be carried out."
	}
	if to := strings.TrimPrefix(strings.TrimSpace(r.To), "@"); validHandle(to) && !strings.Contains(to, "/") {
		b.WriteString("@" + to + ": ")
	} else if to != "" {
		b.WriteString(login(to) + ": ")
	}
	b.WriteString(problem + "\n")
	if try := prose(r.Try); try != "" {
		b.WriteString("\nTry: " + try + "\n")
	}
	if r.Code != "" {
		// For an agent that reads the page rather than the hidden record.
		b.WriteString("\nError code: `" + codeText(string(r.Code)) + "`\n")
	}
	return b.String()
}

// refusalTo is the address a refusal's problem starts with (refusal): "@login: ", or a
// bot's login written out.
var refusalTo = regexp.MustCompile(`^(@[^\s:]+|[^\s:]*\\?\[bot\\?\]): `)

// RefusalReason is what a refusal (Reply's) says, on one line, for an asker that reads it
// through the API: the problem and what to try, without the quoted command, the address,
// the error code's line and the hidden blocks.
func RefusalReason(body string) string {
	var parts []string
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, ">") || strings.HasPrefix(line, "<!--") || strings.HasPrefix(line, "Error code:") {
			continue
		}
		if len(parts) == 0 {
			line = refusalTo.ReplaceAllString(line, "")
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, " ")
}

// list shows the open clarifications, oldest first, as many as fit.
func list(l clarify.Ledger) string {
	var open []clarify.Clarification
	for _, c := range l.Clarifications {
		if c.Status.Open() {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		return "No open clarifications.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Open clarifications (%d)**\n\n%s", len(open), clarificationHeader)
	room := MaxCommentBytes - 1000
	for i, c := range open {
		row := clarificationRow(c)
		if b.Len()+len(row) > room {
			fmt.Fprintf(&b, "\n_%d more not shown; `/clarify show CLR-…` shows one._\n", len(open)-i)
			break
		}
		b.WriteString(row)
	}
	return b.String()
}

// show renders the whole thread of one clarification; when it does not all fit, the
// newest entries are kept and a line says how many earlier ones were left out.
func show(l clarify.Ledger, cid string) string {
	i := slices.IndexFunc(l.Clarifications, func(c clarify.Clarification) bool { return c.ID == cid })
	if i < 0 {
		return fmt.Sprintf("There is no clarification %s in this issue. `/clarify` lists the open ones.\n", id(cid))
	}
	c := l.Clarifications[i]
	var b strings.Builder
	b.WriteString(showHead(c))
	entries := make([]string, len(c.Thread))
	for i, e := range c.Thread {
		entries[i] = fmt.Sprintf("**%s** · round %d · %s · %s%s\n\n%s\n\n",
			inline(string(e.Kind), capWord), e.Round, login(e.Author), stamp(e.At), editedNote(e, " · "), quote(e.Text, capEntry))
	}
	room := MaxCommentBytes - b.Len() - 1000
	first := len(entries)
	for first > 0 && len(entries[first-1]) <= room {
		first--
		room -= len(entries[first])
	}

	if len(entries) == 0 {
		b.WriteString("_The thread is empty._\n")
	}
	if first > 0 {
		fmt.Fprintf(&b, "_%d earlier entries not shown._\n\n", first)
	}
	for _, e := range entries[first:] {
		b.WriteString(e)
	}
	return b.String()
}

// showHead is what show writes above a clarification's thread: its summary line, topic and
// type, decision and options.
func showHead(c clarify.Clarification) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %s · %s · round %s · %s\n\n", id(c.ID), sides(c),
		status(c.Status), rounds(c.Round, c.MaxRounds), blocking(c))
	b.WriteString(topicAndType(c))
	if c.Status == clarify.Resolved && c.Resolution != "" {
		b.WriteString("**Decision:** " + inline(c.Resolution, capDecision) + "\n\n")
	}
	if len(c.Options) > 0 {
		b.WriteString("**Options**\n\n" + options(c) + "\n")
	}
	return b.String()
}

// staleList shows the clarifications that waited past their deadline.
func staleList(l clarify.Ledger) string {
	var b strings.Builder
	n := 0
	for _, c := range l.Clarifications {
		if c.Status != clarify.Stale {
			continue
		}
		if n == 0 {
			b.WriteString(clarificationHeader)
		}
		n++
		b.WriteString(clarificationRow(c))
	}
	if n == 0 {
		return "No stale clarifications.\n"
	}
	return fmt.Sprintf("**Stale clarifications (%d)**\n\n", n) + b.String()
}

// stats counts the clarifications by status, with rounds and assumptions.
func stats(l clarify.Ledger) string {
	return Stats("Clarification stats", clarify.Summarize(l))
}

// Stats writes a summary of clarifications under a title: an issue's for `/clarify stats`,
// a repository's for `bot stats`.
func Stats(title string, s clarify.Summary) string {
	order := []clarify.Status{clarify.Pending, clarify.Answered, clarify.Stale, clarify.Escalated, clarify.Resolved, clarify.Abandoned}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %d clarification(s), %d round(s), %d assumption(s)\n\n", prose(title), s.Clarifications, s.Rounds, s.Assumptions)
	b.WriteString("| status | count |\n|---|---|\n")
	for _, st := range order {
		fmt.Fprintf(&b, "| %s | %d |\n", st, s.ByStatus[st])
	}
	b.WriteString("\n")
	if s.Clarifications > 0 {
		fmt.Fprintf(&b, "- %.1f round(s) per clarification on average\n", s.AverageRounds())
	}
	if s.Answered > 0 {
		fmt.Fprintf(&b, "- time to a first answer: median %s, mean %s (%d answered)\n", took(s.MedianAnswer), took(s.MeanAnswer), s.Answered)
	}
	fmt.Fprintf(&b, "- %d escalated to the maintainers\n", s.Escalations)
	fmt.Fprintf(&b, "- %d settled by a fallback on timeout\n", s.FallbacksTaken)
	b.WriteString(precedentLine(s.Precedents))
	return b.String()
}

// took writes a duration as people read it: minutes, or hours and minutes, or days.
func took(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
