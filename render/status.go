package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// statusHelp is the last visible line of the status comment: the three things to type.
const statusHelp = "Ask with `/clarify @target <question>` · answer with a plain reply or " +
	"`/respond <answer>` · settle with `/clarify resolve CLR-… <decision>`"

// Status returns the status comment: the clarifications table, the assumption
// log, how to use the app, then StatusMarker and ledgerBlock (from EncodeLedger),
// which is written as given, at the very end, and never cut.
//
// When everything does not fit in MaxCommentBytes, closed clarifications and old
// assumptions are left out of the visible tables first (the ledger still holds them)
// and a line says how many; open clarifications are kept as long as any fit.
func Status(l clarify.Ledger, ledgerBlock string) string {
	tail := "\n" + statusHelp + "\n\n" + StatusMarker + "\n" + ledgerBlock + "\n"
	head := "### Clarifications\n\n"
	if n := len(l.Archives); n > 0 {
		head += fmt.Sprintf("_Earlier settled clarifications are archived in %d hidden comment(s); `/clarify show CLR-…` still shows any of them._\n\n", n)
	}

	clar := make([]string, len(l.Clarifications))
	prio := make([]int, 0, len(l.Clarifications)+len(l.Assumptions))
	for i, c := range l.Clarifications {
		clar[i] = clarificationRow(c)
		if c.Status.Open() {
			prio = append(prio, 0)
		} else {
			prio = append(prio, 1)
		}
	}
	assum := make([]string, len(l.Assumptions))
	for i, a := range l.Assumptions {
		assum[i] = assumptionRow(a)
		prio = append(prio, 2)
	}

	// Room for rows: the limit, less the fixed parts and the longest notes we may add.
	room := MaxCommentBytes - len(head) - len(tail) - len(clarificationHeader) -
		len(assumptionHeading) - len(assumptionHeader) -
		len(omittedNote(1<<30, clarificationsOmitted)) - len(omittedNote(1<<30, assumptionsOmitted))
	rows := append(append([]string{}, clar...), assum...)
	keep := make([]bool, len(rows))
	for p := 0; p <= 2; p++ {
		for k := range rows {
			// Open clarifications oldest first (the longest waiting matter most); closed
			// ones and assumptions newest first, so what is cut is old history.
			i := k
			if p > 0 {
				i = len(rows) - 1 - k
			}
			if prio[i] == p && len(rows[i]) <= room {
				keep[i] = true
				room -= len(rows[i])
			}
		}
	}

	var b strings.Builder
	b.WriteString(head)
	if len(l.Clarifications) == 0 {
		b.WriteString("No clarifications yet.\n")
	} else {
		b.WriteString(clarificationHeader)
		n := writeKept(&b, clar, keep[:len(clar)])
		if n > 0 {
			b.WriteString(omittedNote(n, clarificationsOmitted))
		}
	}
	if len(l.Assumptions) > 0 {
		b.WriteString(assumptionHeading)
		b.WriteString(assumptionHeader)
		n := writeKept(&b, assum, keep[len(clar):])
		if n > 0 {
			b.WriteString(omittedNote(n, assumptionsOmitted))
		}
	}
	b.WriteString(tail)
	return b.String()
}

// writeKept writes the kept rows in their ledger order and says how many it left out.
func writeKept(b *strings.Builder, rows []string, keep []bool) (omitted int) {
	for i, r := range rows {
		if keep[i] {
			b.WriteString(r)
		} else {
			omitted++
		}
	}
	return omitted
}

const (
	clarificationsOmitted = "clarifications not shown; `/clarify show CLR-…` shows one"
	assumptionsOmitted    = "older assumptions not shown"
)

// omittedNote says how many rows a table left out.
func omittedNote(n int, what string) string {
	return fmt.Sprintf("\n_%d %s._\n", n, what)
}

const (
	assumptionHeading = "\n#### Assumptions\n\n"
	assumptionHeader  = "| decision | confidence | risk | by | source |\n|---|---|---|---|---|\n"
)

// assumptionRow is one line of the assumption log.
func assumptionRow(a clarify.Assumption) string {
	return "| " + strings.Join([]string{
		cell(a.Decision, capDecision),
		cell(a.Confidence, capWord),
		cell(a.Risk, capWord),
		login(a.Author),
		source(a),
	}, " | ") + " |\n"
}

// source says where an assumption came from in words a reader knows.
func source(a clarify.Assumption) string {
	var s string
	switch a.Source {
	case "assume":
		s = "`/assume`"
	case "timeout_assumed":
		s = "fallback on timeout"
	default:
		s = cell(a.Source, capWord)
	}
	if a.Clarification != "" {
		s += " (" + id(a.Clarification) + ")"
	}
	return s
}
