package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/clarify-app/clarify/clarify"
)

// A decision issue stands for one blocking clarification in GitHub's own model (relations:
// in .github/clarify.yml): the work issue is blocked by it, or it is the work issue's
// sub-issue, so the sidebar, Projects and whatever reads issue dependencies show the work
// as waiting. It is named for the question and links back. An answer may be given in either
// issue: a reply in the decision issue is mirrored into the work issue, where the
// clarification lives, as the replier's comment there (Mirror).

// capTitle is how much of a topic or question a decision issue's title shows, in runes:
// GitHub's titles take 256 characters, and a sidebar shows far fewer.
const capTitle = 80

// RelationKey is the marker key of a clarification's decision issue and of the comment
// that closes it: a run finds an issue it opened but did not record, and never says the
// decision twice.
func RelationKey(cid string) string { return "relation:" + id(cid) }

// RelationClosedKey is the marker key of the comment that closes a decision issue.
func RelationClosedKey(cid string) string { return "relation-closed:" + id(cid) }

// RelationTitle is a decision issue's title: the question's topic (else its first words)
// and its id. A title is plain text: it is kept on one line, not escaped.
func RelationTitle(c clarify.Clarification) string {
	about := c.Topic
	if about == "" {
		if q := question(c, 1); q != nil {
			about = q.Text
		}
	}
	about = strings.Join(strings.Fields(clean(about)), " ")
	if utf8.RuneCountInString(about) > capTitle {
		// Cut between words where one ends in the second half, so no word shows cut.
		about = string([]rune(about)[:capTitle-1])
		if i := strings.LastIndexByte(about, ' '); i > len(about)/2 {
			about = about[:i]
		}
		about += "…"
	}
	if about == "" {
		return "Decision needed (" + id(c.ID) + ")"
	}
	return "Decision needed: " + about + " (" + id(c.ID) + ")"
}

// RelationBody is a decision issue's body: which issue waits on it and why, the question,
// and where to answer: here too when repliesHere (a reply is taken to the work issue). It
// ends with Marker(key).
func RelationBody(c clarify.Clarification, work clarify.IssueRef, key string, repliesHere bool) string {
	cid := id(c.ID)
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s#%d waits on this decision: clarification %s, %s.\n\n", work.Owner, work.Repo, work.Number, cid, sides(c))
	b.WriteString(topicAndType(c))
	if q := question(c, c.Round); q != nil {
		b.WriteString(quote(q.Text, capQuestion) + "\n\n")
	}
	if len(c.Options) > 0 {
		b.WriteString("**Options**\n\n" + options(c) + "\n")
	}
	b.WriteString("**How to answer**\n\n")
	if repliesHere {
		fmt.Fprintf(&b, "Here: a plain reply answers this question, and Clarify takes it to %s/%s#%d as your comment. Or there: `/respond %s <answer>`. ",
			work.Owner, work.Repo, work.Number, cid)
	} else {
		fmt.Fprintf(&b, "In %s/%s#%d: a plain reply there answers the oldest open question addressed to you, and `/respond %s <answer>` this one by name. ",
			work.Owner, work.Repo, work.Number, cid)
	}
	b.WriteString("Clarify closes this issue with the decision once the clarification settles.\n")
	return strings.TrimRight(b.String(), "\n") + "\n\n" + Marker(key) + "\n"
}

// RelationOf reads the work issue and the clarification a decision issue's body
// (RelationBody) stands for; false when body is none. Only the app's own body, sealed over
// under the work issue's key, is to be believed (render.IssueKeys.Sealed, RelationKey).
func RelationOf(body string) (work clarify.IssueRef, cid string, ok bool) {
	first, _, _ := strings.Cut(body, "\n")
	issue, rest, ok := strings.Cut(first, " waits on this decision: clarification ")
	if !ok {
		return clarify.IssueRef{}, "", false
	}
	cid, _, _ = strings.Cut(rest, ",")
	work, ok = clarify.ParseIssueRef(issue)
	if !ok {
		return clarify.IssueRef{}, "", false
	}
	if cid, ok = clarify.NormalizeID(cid); !ok {
		return clarify.IssueRef{}, "", false
	}
	return work, cid, true
}

// RelationClosed is the comment that closes a decision issue: the decision, or that the
// question was abandoned. c is nil when the work issue's ledger no longer holds the
// clarification (moved to an archive comment, which only a final one is).
func RelationClosed(cid string, c *clarify.Clarification, work clarify.IssueRef, key string) string {
	var b strings.Builder
	switch {
	case c == nil:
		fmt.Fprintf(&b, "Clarification %s is settled; its record is in %s/%s#%d.\n", id(cid), work.Owner, work.Repo, work.Number)
	case c.Status == clarify.Resolved:
		fmt.Fprintf(&b, "**Decided** (%s, in %s/%s#%d):\n\n%s\n", id(cid), work.Owner, work.Repo, work.Number, quote(c.Resolution, capDecision))
	default:
		fmt.Fprintf(&b, "Clarification %s was %s without a decision (%s/%s#%d).\n", id(cid), status(c.Status), work.Owner, work.Repo, work.Number)
	}
	return strings.TrimRight(b.String(), "\n") + "\n\n" + Marker(key) + "\n"
}
