package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// The conclusions of the check run an issue puts on the pull requests that link it.
const (
	CheckFailure = "failure"
	CheckSuccess = "success"
)

// Check returns the conclusion, title and summary of the check run that issue puts on a
// pull request linking it, given its open blocking clarifications: failing while there
// is any, naming each and the command that settles it; passing once none is left.
func Check(issue int, blocking []clarify.Clarification) (conclusion, title, summary string) {
	if len(blocking) == 0 {
		return CheckSuccess, fmt.Sprintf("No open blocking clarification in #%d", issue),
			fmt.Sprintf("Every blocking clarification of #%d is settled.\n", issue)
	}
	ids := make([]string, 0, len(blocking))
	var b strings.Builder
	fmt.Fprintf(&b, "#%d waits on a decision before this pull request should go in:\n\n", issue)
	for _, c := range blocking {
		ids = append(ids, c.ID)
		fmt.Fprintf(&b, "- %s · %s · %s · %s\n", id(c.ID), cell(c.Topic, capTopic), sides(c), status(c.Status))
	}
	fmt.Fprintf(&b, "\nThis check passes once each is resolved or abandoned in #%d (`/clarify resolve %s <decision>`).\n", issue, blocking[0].ID)
	if len(ids) == 1 {
		title = fmt.Sprintf("Waiting on %s in #%d", ids[0], issue)
	} else {
		title = fmt.Sprintf("Waiting on %d clarifications in #%d: %s", len(ids), issue, strings.Join(ids, ", "))
	}
	return CheckFailure, title, b.String()
}

// CheckUnlinked is the check run of an issue that a pull request no longer links: it
// passes, whatever the issue holds, since the pull request no longer closes it.
func CheckUnlinked(issue int) (conclusion, title, summary string) {
	return CheckSuccess, fmt.Sprintf("#%d is no longer linked", issue),
		fmt.Sprintf("This pull request no longer closes #%d, so its clarifications do not hold it up.\n", issue)
}
