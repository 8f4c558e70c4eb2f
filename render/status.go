package render

import (
	"crypto/sha256"
	"encoding/hex"
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
func Status(l clarify.Ledger, ledgerBlock string) string { return statusIn(l, ledgerBlock, 0) }

// StatusUnder is Status under a head: the first round of the first clarification,
// which the status comment is created with to spare a comment of its own, and keeps as it
// was written. The head ends at HeadEnd; an empty head is Status.
func StatusUnder(head string, l clarify.Ledger, ledgerBlock string) string {
	if head == "" {
		return Status(l, ledgerBlock)
	}
	top := head + headJoin
	return top + statusIn(l, ledgerBlock, len(top))
}

// headJoin joins a head to the table under it; the rule sets the round apart.
const headJoin = "\n\n" + HeadEnd + "\n\n---\n\n"

// HeadRoom is what a head of n bytes takes of a status comment.
func HeadRoom(n int) int { return n + len(headJoin) }

// HeadEnd closes the head of a status comment.
const HeadEnd = "<!-- clarify:head-end -->"

// Head returns the head of a status comment's body, "" when it has none.
func Head(body string) string {
	head, _, ok := strings.Cut(body, "\n\n"+HeadEnd+"\n\n")
	if !ok {
		return ""
	}
	return head
}

// HeadSum is the digest of a head the ledger keeps, so that a head edited by hand is told
// from the one the app wrote ("" for none).
func HeadSum(head string) string {
	if head == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(head))
	return hex.EncodeToString(sum[:12])
}

// statusIn writes the status comment in the room MaxCommentBytes leaves after reserved bytes.
func statusIn(l clarify.Ledger, ledgerBlock string, reserved int) string {
	rec := Record{V: RecordVersion, Kind: "status"}
	for _, c := range l.Clarifications {
		if c.Status.Open() {
			rec.Open = append(rec.Open, c.ID)
		}
	}
	tail := "\n" + statusHelp + "\n\n" + recordComment(rec) + "\n" + StatusMarker + "\n" + ledgerBlock + "\n"
	head := "### Clarifications\n\n"
	if n := len(l.Archives); n > 0 {
		head += fmt.Sprintf("_Earlier settled clarifications are archived in %d hidden comment(s); `/clarify show CLR-…` still shows any of them._\n\n", n)
	}
	clar, assum, prio := statusRows(l)
	// Room for rows: the limit, less the fixed parts and the longest notes we may add.
	room := MaxCommentBytes - reserved - len(head) - len(tail) - len(clarificationHeader) -
		len(assumptionHeading) - len(assumptionHeader) -
		len(omittedNote(1<<30, clarificationsOmitted)) - len(omittedNote(1<<30, assumptionsOmitted))
	keep := keepRows(append(append([]string{}, clar...), assum...), prio, room)

	var b strings.Builder
	b.WriteString(head)
	if len(l.Clarifications) == 0 {
		b.WriteString("No clarifications yet.\n")
	} else {
		b.WriteString(clarificationHeader)
		if n := writeKept(&b, clar, keep[:len(clar)]); n > 0 {
			b.WriteString(omittedNote(n, clarificationsOmitted))
		}
	}
	if len(l.Assumptions) > 0 {
		b.WriteString(assumptionHeading)
		b.WriteString(assumptionHeader)
		if n := writeKept(&b, assum, keep[len(clar):]); n > 0 {
			b.WriteString(omittedNote(n, assumptionsOmitted))
		}
	}
	b.WriteString(tail)
	return b.String()
}

// statusRows are the table rows of the ledger's clarifications and assumptions, and the
// priority of each (clarifications then assumptions) when room runs out: open
// clarifications 0, settled ones 1, assumptions 2.
func statusRows(l clarify.Ledger) (clar, assum []string, prio []int) {
	clar = make([]string, len(l.Clarifications))
	prio = make([]int, 0, len(l.Clarifications)+len(l.Assumptions))
	for i, c := range l.Clarifications {
		clar[i] = clarificationRow(c)
		if c.Status.Open() {
			prio = append(prio, 0)
		} else {
			prio = append(prio, 1)
		}
	}
	assum = make([]string, len(l.Assumptions))
	for i, a := range l.Assumptions {
		assum[i] = assumptionRow(a)
		prio = append(prio, 2)
	}
	return clar, assum, prio
}

// keepRows picks the rows that fit in room, by priority: open clarifications oldest first
// (the longest waiting matter most); settled ones and assumptions newest first, so what is
// cut is old history.
func keepRows(rows []string, prio []int, room int) []bool {
	keep := make([]bool, len(rows))
	for p := 0; p <= 2; p++ {
		for k := range rows {
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
	return keep
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
