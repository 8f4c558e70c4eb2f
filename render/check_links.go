package render

import (
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// BlockedIssue is one issue a pull request links, with its open blocking clarifications.
type BlockedIssue struct {
	Issue    int
	Blocking []clarify.Clarification
}

// CheckLinks returns the conclusion, title and summary of the one check run an outsider's
// pull request gets for all the issues it links (one write a push, however many it
// names): failing while any of them is blocked, naming each issue and its clarifications.
func CheckLinks(blocked []BlockedIssue) (conclusion, title, summary string) {
	if len(blocked) == 0 {
		return CheckSuccess, "No linked issue waits on a clarification",
			"None of the issues this pull request closes has an open blocking clarification.\n"
	}
	var b strings.Builder
	var issues []string
	b.WriteString("Issues this pull request closes wait on a decision before it should go in:\n\n")
	for _, is := range blocked {
		issues = append(issues, fmt.Sprintf("#%d", is.Issue))
		for _, c := range is.Blocking {
			fmt.Fprintf(&b, "- #%d · %s · %s · %s · %s\n", is.Issue, id(c.ID), cell(c.Topic, capTopic), sides(c), status(c.Status))
		}
	}
	b.WriteString("\nThis check passes once each is resolved or abandoned in its issue, or the pull request no longer closes it.\n")
	if len(issues) == 1 {
		title = "Waiting on a clarification in " + issues[0]
	} else {
		title = fmt.Sprintf("Waiting on clarifications in %d issues: %s", len(issues), strings.Join(issues, ", "))
	}
	return CheckFailure, title, b.String()
}
