package replay

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// A check is what an `expect` step of a scenario checks, against the in-memory GitHub,
// once every step above it has run:
//
//	expect #42 labels clarification:active,clarification:stale   (the exact set; "none" for no label)
//	expect CLR-42-001 stale                                     (a clarification's status)
//	expect CLR-42-001 round 2
//	expect #42 bot says "Still waiting"                         (some comment of the app holds the text)
//	expect #42 bot says "Escalated" once                        (exactly one)
//	expect #42 bot says nothing "Escalated"                     (none)
//	expect #42 assumption "b) leave them out"                   (the assumption log holds it)
//
// fakegithub.ParseScenario reads the subject (#N or a clarification id); parseCheck reads
// the rest before anything is played, so a mistyped check fails at once, naming its line.
// A check returns "" when it holds, else what was found instead.
type check func(h *Harness, repo string, issue int) string

// parseChecks parses the check of every expect step, by line.
func parseChecks(steps []fakegithub.Step) (map[int]check, error) {
	checks := map[int]check{}
	for _, st := range steps {
		if st.Action != fakegithub.ActionExpect {
			continue
		}
		c, err := parseCheck(st.Subject, st.Check)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %w", st.Line, strings.TrimSpace(st.Text), err)
		}
		checks[st.Line] = c
	}
	return checks, nil
}

// parseCheck reads what is checked about subject: a clarification's status or round, or
// an issue's labels, the app's comments or the assumption log.
func parseCheck(subject, text string) (check, error) {
	if strings.HasPrefix(subject, "CLR-") {
		if r, ok := strings.CutPrefix(text, "round "); ok {
			return roundCheck(subject, r)
		}
		return statusCheck(subject, text), nil
	}
	kinds := []struct {
		prefix string
		parse  func(string) (check, error)
	}{
		{"labels ", labelsCheck},
		{"bot says ", botSaysCheck},
		{"assumption ", assumptionCheck},
	}
	for _, k := range kinds {
		if rest, ok := strings.CutPrefix(text, k.prefix); ok {
			return k.parse(rest)
		}
	}
	return nil, errors.New("unknown check: labels, bot says, assumption, or a CLR id with a status or round")
}

// clarification finds id in the issue's ledger; miss says why it could not.
func clarification(h *Harness, repo string, issue int, id string) (c clarify.Clarification, miss string) {
	l, err := h.Ledger(repo, issue)
	if err != nil {
		return c, err.Error()
	}
	c, ok := l.Find(id)
	if !ok {
		return c, "no " + id + " in the ledger"
	}
	return c, ""
}

func statusCheck(id, status string) check {
	want := clarify.Status(strings.TrimSpace(status))
	return func(h *Harness, repo string, issue int) string {
		c, miss := clarification(h, repo, issue, id)
		if miss != "" {
			return miss
		}
		if c.Status != want {
			return "status " + string(c.Status)
		}
		return ""
	}
}

func roundCheck(id, round string) (check, error) {
	want, err := strconv.Atoi(strings.TrimSpace(round))
	if err != nil {
		return nil, errors.New("expected: round N, N a number")
	}
	return func(h *Harness, repo string, issue int) string {
		c, miss := clarification(h, repo, issue, id)
		if miss != "" {
			return miss
		}
		if c.Round != want {
			return fmt.Sprintf("round %d", c.Round)
		}
		return ""
	}, nil
}

// labelsCheck compares the issue's labels, in any order, with a comma-separated set.
func labelsCheck(list string) (check, error) {
	want := strings.Split(strings.TrimSpace(list), ",")
	slices.Sort(want)
	return func(h *Harness, repo string, issue int) string {
		got := h.Fake.IssueLabels(repo, issue)
		slices.Sort(got)
		gotS := strings.Join(got, ",")
		if gotS == "" {
			gotS = "none"
		}
		if strings.Join(want, ",") != gotS {
			return "labels " + gotS
		}
		return ""
	}, nil
}

// botSaysCheck counts the app's comments that hold a text: at least one, exactly one
// ("once") or none ("nothing").
func botSaysCheck(arg string) (check, error) {
	none := strings.HasPrefix(arg, "nothing ")
	arg = strings.TrimPrefix(arg, "nothing ")
	once := strings.HasSuffix(arg, " once")
	arg = strings.TrimSuffix(arg, " once")
	text, err := strconv.Unquote(strings.TrimSpace(arg))
	if err != nil {
		return nil, errors.New("the text must be in double quotes")
	}
	if none && once {
		return nil, errors.New(`"nothing" and "once" contradict each other`)
	}
	return func(h *Harness, repo string, issue int) string {
		n := botCommentsHolding(h, repo, issue, text)
		if none && n != 0 || once && n != 1 || !none && !once && n == 0 {
			return fmt.Sprintf("%d comment(s) of the app hold it", n)
		}
		return ""
	}, nil
}

func botCommentsHolding(h *Harness, repo string, issue int, text string) int {
	n := 0
	for _, c := range h.Fake.Comments(repo, issue) {
		if c.User == h.Fake.BotLogin() && strings.Contains(c.Body, text) {
			n++
		}
	}
	return n
}

// assumptionCheck looks for a text in the decisions of the ledger's assumption log.
func assumptionCheck(arg string) (check, error) {
	text, err := strconv.Unquote(strings.TrimSpace(arg))
	if err != nil {
		return nil, errors.New("the text must be in double quotes")
	}
	return func(h *Harness, repo string, issue int) string {
		l, err := h.Ledger(repo, issue)
		if err != nil {
			return err.Error()
		}
		for _, a := range l.Assumptions {
			if strings.Contains(a.Decision, text) {
				return ""
			}
		}
		return fmt.Sprintf("%d assumption(s), none holding it", len(l.Assumptions))
	}, nil
}
