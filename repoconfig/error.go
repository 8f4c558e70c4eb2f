package repoconfig

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong in a config file.
type Problem struct {
	// Line is the 1-based line of the offending node, or 0 when it is unknown (a file too
	// large to read).
	Line int
	// Key is the dotted path of the key the problem is about ("max_rounds.blocking"), or ""
	// for a problem with the file as a whole.
	Key string
	// Message says what is wrong and what to write instead, for a maintainer.
	Message string
}

// String renders the problem as `line 4: sla: "30" is not a duration (use 30m, 2h)`.
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		b.WriteString("line " + strconv.Itoa(p.Line) + ": ")
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error lists every problem found in a config file (not just the first), sorted by line.
type Error struct {
	Problems []Problem
}

// Error joins the problems with "; " on one line, for a log; people read Lines.
func (e *Error) Error() string { return strings.Join(Lines(e), "; ") }

// Lines lists what is wrong one problem a line, as Problem.String renders each: what the
// issue comment and bot config check show. An error that is not an *Error is one line.
func Lines(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return []string{err.Error()}
	}
	out := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p.String()
	}
	return out
}

// maxProblems is how many problems an Error lists before it sums up the rest: a file with a
// thousand bad entries gets a readable comment, and the rest shows on the next check.
const maxProblems = 30

// newError sorts the problems by line, keeping the order they were found in within a line,
// and sums up those past maxProblems in one last problem.
func newError(problems []Problem) *Error {
	problems = slices.Clone(problems)
	slices.SortStableFunc(problems, func(a, b Problem) int { return cmp.Compare(a.Line, b.Line) })
	if rest := len(problems) - maxProblems; rest > 0 {
		problems = append(problems[:maxProblems], Problem{Line: problems[maxProblems].Line,
			Message: strconv.Itoa(rest) + " more problems from this line on are not listed: fix the ones above and check the file again"})
	}
	return &Error{Problems: problems}
}
