package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// Caps on user text echoed in a message, in runes. Chosen so that even text that
// escapes at four bytes a rune keeps every message well under MaxCommentBytes; finish
// is the backstop.
const (
	capQuestion = 4000 // the question of a round comment
	capPosition = 3000 // each side's last position in an escalation
	capEntry    = 2000 // one thread entry shown by /clarify show
	capReason   = 1000 // why a clarification escalated
	capDecision = 300  // an assumption's decision, a resolution
	capOption   = 300  // one option's text, one line of evidence
	capTopic    = 120  // a topic, in a heading or a table cell
	capWord     = 60   // a login, role, type, confidence or risk
	maxOptions  = 12   // options listed before "… and N more"
	maxEvidence = 10   // evidence lines listed before "… and N more"
	maxMentions = 30   // maintainers an escalation mentions
)

// party names one side of a clarification: its role if it speaks for one, else its login.
func party(p clarify.Party) string {
	if p.Role != "" {
		return cell(p.Role, capWord)
	}
	return login(p.Login)
}

// login shows a login without a live mention: bare, as GitHub shows it in a byline.
func login(s string) string { return cell(strings.TrimPrefix(s, "@"), capWord) }

// target names whom a clarification is addressed to; a team keeps its "@" (with a
// zero-width space after it) so it reads as a team, not as a path.
func target(t clarify.Target) string {
	if t.Kind == clarify.TargetTeam {
		return cell("@"+strings.TrimPrefix(t.Name, "@"), capWord)
	}
	return login(t.Name)
}

// sides is "engineer → architect".
func sides(c clarify.Clarification) string { return party(c.Asker) + " → " + target(c.Target) }

// id shows a clarification id. Ids are app-made ("CLR-42-001"); anything else in one is
// dropped, so an id is also safe inside a code span.
func id(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; isASCIILetter(c) || isDigit(c) || c == '-' || c == '_' || c == '.' {
			b.WriteByte(c)
		}
	}
	if b.Len() == 0 {
		return "CLR-?"
	}
	return b.String()
}

// rounds is "2/5", or "2" when no maximum is recorded.
func rounds(round, most int) string {
	if most > 0 {
		return fmt.Sprintf("%d/%d", round, most)
	}
	return fmt.Sprint(round)
}

// blocking is the word for the Blocking flag.
func blocking(c clarify.Clarification) string {
	if c.Blocking {
		return "blocking"
	}
	return "non-blocking"
}

// stamp is a time as users read it in a table: minutes, UTC, or a dash when unset.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// waitingOn names who moves a clarification next: the target while an answer is due,
// the asker once it is answered, nobody once it is final.
func waitingOn(c clarify.Clarification) string {
	switch clarify.WaitingOn(c) {
	case clarify.SideTarget:
		return target(c.Target) + answersSoFar(c)
	case clarify.SideAsker:
		return party(c.Asker)
	case clarify.SideMaintainers:
		return "maintainers"
	default:
		return "—"
	}
}

// answersSoFar is, for a round that needs several people's answers, how it stands by its
// tally (clarify.TallyOf): "· 1 of 2 answers: maria" while none differs; "· 2 answers
// differ, 2 must agree: maria: Yes.; ana: No." while no two agree; else who agrees and
// each dissent, which holds the round however many agree.
func answersSoFar(c clarify.Clarification) string {
	t := clarify.TallyOf(c)
	if t.Need <= 1 {
		return ""
	}
	switch {
	case len(t.Differ) == 0:
		if len(t.Agree) == 0 {
			return fmt.Sprintf(" · 0 of %d answers", t.Need)
		}
		return fmt.Sprintf(" · %d of %d answers: %s", len(t.Agree), t.Need, authors(t.Agree, false))
	case len(t.Agree) == 1:
		all := clarify.RoundAnswers(c)
		return fmt.Sprintf(" · %d answers differ, %d must agree: %s", len(all), t.Need, authors(all, true))
	}
	differ := fmt.Sprintf("%d differ", len(t.Differ))
	if len(t.Differ) == 1 {
		differ = "1 differs"
	}
	s := fmt.Sprintf(" · %d of %d agree: %s; %s: %s", len(t.Agree), t.Need, authors(t.Agree, false), differ, authors(t.Differ, true))
	if len(t.Agree) >= t.Need {
		s += " · a dissent holds it"
	}
	return s
}

// authors lists the authors of answers, each with their words when said is true.
func authors(answers []clarify.Entry, said bool) string {
	var who []string
	for _, e := range answers {
		w := login(e.Author)
		if said {
			w += ": " + inline(e.Text, capWord)
		}
		who = append(who, w)
	}
	sep := ", "
	if said {
		sep = "; "
	}
	return strings.Join(who, sep)
}

// staleAt is when an open clarification goes stale; a final one never does.
func staleAt(c clarify.Clarification) string {
	if !c.Status.Open() || c.StaleAfter.IsZero() {
		return "—"
	}
	return stamp(c.StaleAfter)
}

// status shows a status; an escalated clarification stands out in a long table.
func status(s clarify.Status) string {
	if s == clarify.Escalated {
		return "**escalated**"
	}
	return cell(string(s), capWord)
}

// clarificationHeader is the table header shared by the status comment and /clarify.
const clarificationHeader = "| id | topic | from → to | status | round | waiting on | stale at | decision |\n" +
	"|---|---|---|---|---|---|---|---|\n"

// clarificationRow is one row under clarificationHeader.
func clarificationRow(c clarify.Clarification) string {
	return "| " + strings.Join([]string{
		id(c.ID),
		cell(c.Topic, capTopic),
		sides(c),
		status(c.Status),
		rounds(c.Round, c.MaxRounds),
		waitingOn(c),
		staleAt(c),
		decision(c),
	}, " | ") + " |\n"
}

// decision is a settled clarification's decision, shortened for a table cell; the thread
// (`/clarify show`) keeps it whole.
func decision(c clarify.Clarification) string {
	if c.Status.Open() {
		return "—"
	}
	return cell(c.Resolution, capTopic)
}

// options lists a clarification's options, the fallback marked, as Markdown list items.
func options(c clarify.Clarification) string {
	var b strings.Builder
	for i, o := range c.Options {
		if i == maxOptions {
			fmt.Fprintf(&b, "- … and %d more\n", len(c.Options)-maxOptions)
			break
		}
		b.WriteString("- **" + inline(o.Key, capWord) + ")** " + inline(o.Text, capOption))
		if c.Fallback != "" && o.Key == c.Fallback {
			b.WriteString(" (fallback)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// editedNote marks an entry taken from a comment that had been edited after it was posted
// (sep before it): the thread may once have shown other words than the ones recorded.
func editedNote(e clarify.Entry, sep string) string {
	if e.Edited {
		return sep + "edited after it was posted"
	}
	return ""
}

// lastEntry is the newest entry of the given kind, or nil.
func lastEntry(c clarify.Clarification, kind clarify.EntryKind) *clarify.Entry {
	for i := len(c.Thread) - 1; i >= 0; i-- {
		if c.Thread[i].Kind == kind {
			return &c.Thread[i]
		}
	}
	return nil
}

// finish ends a message with its hidden record and marker and keeps it under MaxCommentBytes. The
// caps on user text should make the cut unnecessary; if it happens anyway it falls on a
// line break, where every construct of ours is complete and a quote simply ends.
func finish(body, key string, rec Record) string {
	m := recordComment(rec) + "\n" + Marker(key)
	body = strings.TrimRight(body, "\n")
	const note = "\n\n_… (message truncated)_"
	if limit := MaxCommentBytes - len(m) - len(note) - 3; len(body) > limit {
		cut := strings.LastIndexByte(body[:limit], '\n')
		if cut < 0 {
			cut = 0
		}
		body = strings.TrimRight(body[:cut], "\n") + note
	}
	return body + "\n\n" + m + "\n"
}
