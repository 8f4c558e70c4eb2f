package action

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/palantir/go-githubapp/githubapp"
)

// report writes what the run did: a line on stdout, an ::error:: workflow command when it
// failed (GitHub shows it as an annotation on the run), and a short Markdown summary
// appended to $GITHUB_STEP_SUMMARY. It returns the exit code.
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
func report(env Env, opts Options, out Outcome) int {
	stdout := opts.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	code, line := verdict(out)
	switch {
	case code != ExitOK:
		fmt.Fprintf(stdout, "::error title=Clarify::%s\n", escapeCommand(line))
	case out.Notice != "":
		fmt.Fprintf(stdout, "::notice title=Clarify::%s\n", escapeCommand(line))
	default:
		fmt.Fprintln(stdout, "Clarify: "+line)
	}
	if env.StepSummary != "" {
		if err := appendSummary(env.StepSummary, out, line, code); err != nil {
			fmt.Fprintf(stdout, "::warning title=Clarify::%s\n", escapeCommand("step summary not written: "+err.Error()))
		}
	}
	return code
}

// verdict is the exit code and the one line that says why, after what the run was about
// when it knows.
func verdict(out Outcome) (int, string) {
	code, line := verdictOf(out)
	if out.What == "" {
		return code, line
	}
	return code, out.What + ": " + line
}

func verdictOf(out Outcome) (int, string) {
	spent := fmt.Sprintf("%d requests (%d writes)", out.Requests, out.Writes)
	var invalid githubapp.ValidationError
	switch {
	case out.Err == nil && out.Deferred > 0:
		return ExitFailed, fmt.Sprintf("the request budget (CLARIFY_ACTION_BUDGET) was spent with %d issues left for the next scheduled run; %s",
			out.Deferred, spent)
	case out.Err == nil && out.Notice != "":
		return ExitOK, out.Notice
	case out.Err == nil && out.Note != "":
		return ExitOK, out.Note + " " + spent
	case out.Err == nil:
		return ExitOK, "done; " + spent
	case out.Requests == 0 && !errors.As(out.Err, &invalid) && !errors.Is(out.Err, errBudget):
		return ExitRefused, fmt.Sprintf("not run: %v", out.Err)
	case errors.Is(out.Err, errBudget):
		return ExitFailed, fmt.Sprintf("the request budget (CLARIFY_ACTION_BUDGET) was spent before the run was through; the next run takes up the rest: %v", out.Err)
	}
	return ExitFailed, fmt.Sprintf("failed after %s: %v", spent, out.Err)
}

func appendSummary(path string, out Outcome, line string, code int) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	head := "✅ Clarify"
	if code != ExitOK {
		head = "❌ Clarify"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n%s\n\n", head, line)
	if out.Issues > 0 || out.Deferred > 0 || out.Unchanged > 0 {
		fmt.Fprintf(&b, "| issues visited | unchanged, not due | left for the next run | requests | writes |\n|---|---|---|---|---|\n| %d | %d | %d | %d | %d |\n\n",
			out.Issues, out.Unchanged, out.Deferred, out.Requests, out.Writes)
	}
	_, err = io.WriteString(f, b.String())
	return errors.Join(err, f.Close())
}

// escapeCommand escapes a workflow command's message as the runner reads it back.
func escapeCommand(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
