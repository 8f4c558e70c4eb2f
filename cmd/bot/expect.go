package main

import (
	"bufio"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// An expectation is an `expect` line of a scenario, checked against the in-memory GitHub
// once every step above it has run:
//
//	expect #42 labels clarification:active,clarification:stale   (the exact set; "none" for no label)
//	expect CLR-42-001 stale                                     (a clarification's status)
//	expect CLR-42-001 round 2
//	expect #42 bot says "Still waiting"                         (some comment of the app holds the text)
//	expect #42 bot says "Escalated" once                        (exactly one)
//	expect #42 bot says nothing "Escalated"                     (none)
//	expect #42 assumption "b) leave them out"                   (the assumption log holds it)
type expectation struct {
	Line int
	Text string
}

var expectRE = regexp.MustCompile(`^expect\s+(#(\d+)|CLR-(\d+)-\d+)\s+(.*)$`)

// splitExpectations takes the expect lines out of a scenario, leaving a comment in their
// place so the line numbers of the rest stay true.
func splitExpectations(src string) (string, []expectation) {
	var out strings.Builder
	var exps []expectation
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "expect ") {
			exps = append(exps, expectation{Line: n, Text: t})
			out.WriteString("# " + t + "\n")
			continue
		}
		out.WriteString(line + "\n")
	}
	return out.String(), exps
}

// check returns "" when the expectation holds, else what was found instead.
func (e expectation) check(h *Harness, repo string) string {
	m := expectRE.FindStringSubmatch(e.Text)
	if m == nil {
		return "not an expectation: write `expect #N …` or `expect CLR-N-SEQ …`"
	}
	num := m[2]
	if num == "" {
		num = m[3]
	}
	issue, _ := strconv.Atoi(num)
	rest := m[4]
	switch {
	case strings.HasPrefix(m[1], "CLR-"):
		l, err := issueLedger(h, repo, issue)
		if err != nil {
			return err.Error()
		}
		c, ok := l.Find(m[1])
		if !ok {
			return "no " + m[1] + " in the ledger"
		}
		if r, found := strings.CutPrefix(rest, "round "); found {
			if strconv.Itoa(c.Round) != strings.TrimSpace(r) {
				return fmt.Sprintf("round %d", c.Round)
			}
			return ""
		}
		if string(c.Status) != strings.TrimSpace(rest) {
			return "status " + string(c.Status)
		}
		return ""
	case strings.HasPrefix(rest, "labels "):
		want := strings.TrimSpace(strings.TrimPrefix(rest, "labels "))
		got := h.Fake.IssueLabels(repo, issue)
		sort.Strings(got)
		gotS := strings.Join(got, ",")
		if gotS == "" {
			gotS = "none"
		}
		wantL := strings.Split(want, ",")
		sort.Strings(wantL)
		if strings.Join(wantL, ",") != gotS {
			return "labels " + gotS
		}
		return ""
	case strings.HasPrefix(rest, "bot says "):
		arg := strings.TrimPrefix(rest, "bot says ")
		none := strings.HasPrefix(arg, "nothing ")
		arg = strings.TrimPrefix(arg, "nothing ")
		once := strings.HasSuffix(arg, " once")
		arg = strings.TrimSuffix(arg, " once")
		text, err := strconv.Unquote(strings.TrimSpace(arg))
		if err != nil {
			return "the text must be in double quotes"
		}
		n := 0
		for _, c := range h.Fake.Comments(repo, issue) {
			if c.User == h.Fake.BotLogin() && strings.Contains(c.Body, text) {
				n++
			}
		}
		switch {
		case none && n != 0, once && n != 1, !none && !once && n == 0:
			return fmt.Sprintf("%d comment(s) of the app hold it", n)
		}
		return ""
	case strings.HasPrefix(rest, "assumption "):
		text, err := strconv.Unquote(strings.TrimSpace(strings.TrimPrefix(rest, "assumption ")))
		if err != nil {
			return "the text must be in double quotes"
		}
		l, err := issueLedger(h, repo, issue)
		if err != nil {
			return err.Error()
		}
		for _, a := range l.Assumptions {
			if strings.Contains(a.Decision, text) {
				return ""
			}
		}
		return fmt.Sprintf("%d assumption(s), none holding it", len(l.Assumptions))
	}
	return "unknown expectation: labels, bot says, assumption, or a CLR id with a status or round"
}

// issueLedger reads an issue's ledger from the app's status comment, as the app does.
func issueLedger(h *Harness, repo string, issue int) (clarify.Ledger, error) {
	for _, c := range h.Fake.Comments(repo, issue) {
		if c.User == h.Fake.BotLogin() && render.IsStatus(c.Body) {
			return render.DecodeLedger(c.Body, h.Config.LedgerKeyBytes())
		}
	}
	return clarify.Ledger{}, fmt.Errorf("#%d has no status comment", issue)
}
