package render

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// TestTheStatusCommentCountsTheAnswersOfAQuestionThatNeedsSeveral: a round that needs two
// answers shows who answered so far, and, once two answered unlike, each one's answer.
func TestTheStatusCommentCountsTheAnswersOfAQuestionThatNeedsSeveral(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	c := clarify.Clarification{ID: "CLR-42-001", Asker: clarify.Party{Login: "coder-agent"},
		Target: clarify.Target{Kind: clarify.TargetRole, Name: "release"}, Topic: "Freeze?", Status: clarify.Pending,
		Round: 1, MaxRounds: 5, Expect: "yes/no", Needs: 2, CreatedAt: at, StaleAfter: at.Add(time.Hour),
		Thread: []clarify.Entry{{Kind: clarify.KindQuestion, Round: 1, Author: "coder-agent", Text: "Freeze?"}}}
	answer := func(who, text, value string) {
		c.Thread = append(c.Thread, clarify.Entry{Kind: clarify.KindAnswer, Round: 1, Author: who, Text: text, Value: clarify.Value(value)})
	}
	show := func() string {
		return Status(clarify.Ledger{Version: 1, Issue: 42, Seq: 1, Clarifications: []clarify.Clarification{c}}, "")
	}
	if got := show(); !strings.Contains(got, "release · 0 of 2 answers") {
		t.Errorf("no answer yet:\n%s", got)
	}
	answer("maria", "Yes.", "true")
	if got := show(); !strings.Contains(got, "release · 1 of 2 answers: maria |") {
		t.Errorf("maria's answer:\n%s", got)
	}
	answer("ana", "No, not this week.", "false")
	if got := show(); !strings.Contains(got, "release · 2 answers differ, 2 must agree: maria: Yes.; ana: No, not this week. |") {
		t.Errorf("answers that differ:\n%s", got)
	}
}
