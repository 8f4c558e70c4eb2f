package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// replyMirrors lists the app's comments in #42 that stand for replies made in decision
// issue n.
func (w *driver) replyMirrors(n int) []fakegithub.Comment {
	var out []fakegithub.Comment
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if c.User == "clarify[bot]" && strings.Contains(c.Body, " in #"+strconv.Itoa(n)+", taken as their comment:") {
			out = append(out, c)
		}
	}
	return out
}

// TestAReplyInTheDecisionIssueAnswersTheQuestion: maria answers in the decision issue, as
// its body invites her to. The app mirrors her reply into #42 as her comment, where it
// answers CLR-42-001 in her name; a redelivery of her reply's event posts nothing again;
// the asker's resolve then closes the decision issue with the decision, and the app's own
// closing comment there is no reply.
func TestAReplyInTheDecisionIssueAnswersTheQuestion(t *testing.T) {
	w := askWithRelations(t)
	if body := w.h.Fake.IssueBody(repo, decisionIssue); !strings.Contains(body, "a plain reply answers this question") {
		t.Errorf("the decision issue does not say a reply there answers:\n%s", body)
	}
	d, _ := w.h.Fake.Comment(repo, decisionIssue, "maria", "Per API key.")
	before := len(w.h.Fake.Requests())
	if st := w.send(d); st != http.StatusOK {
		t.Fatalf("delivery of maria's reply answered %d", st)
	}
	t.Logf("a reply in the decision issue, taken to the work issue as an answer: %d requests", len(w.h.Fake.Requests())-before)
	c, _ := w.ledger().Find("CLR-42-001")
	if c.Status != clarify.Answered {
		t.Fatalf("CLR-42-001 is %s after maria's reply in the decision issue, want answered", c.Status)
	}
	last := c.Thread[len(c.Thread)-1]
	if last.Kind != clarify.KindAnswer || last.Author != "maria" || last.Text != "Per API key." {
		t.Errorf("the answer recorded is %+v, want maria's %q", last, "Per API key.")
	}
	mirrors := w.replyMirrors(decisionIssue)
	if len(mirrors) != 1 || !strings.Contains(mirrors[0].Body, "@maria in #43, taken as their comment:") || last.CommentID != mirrors[0].ID {
		t.Fatalf("mirrors of the reply in #42: %+v; want one, standing for maria, whose id the answer carries", mirrors)
	}
	if st := w.send(d); st != http.StatusOK || len(w.replyMirrors(decisionIssue)) != 1 {
		t.Errorf("a redelivery answered %d and left %d mirrors, want 200 and 1", st, len(w.replyMirrors(decisionIssue)))
	}

	w.comment("coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	checkSettled(t, w, "**Decided** (CLR-42-001, in octo/widgets#42):\n\n> Per API key.")
	// The harness delivers GitHub's events of the app's own writes, its closing comment in
	// the decision issue among them: that is no reply.
	if n := len(w.replyMirrors(decisionIssue)); n != 1 {
		t.Errorf("#42 has %d mirrors of replies in the decision issue after it closed, want maria's alone", n)
	}
}

// TestACommandInTheDecisionIssueIsTheRepliersCommand: the asker resolves from the decision
// issue; the command is taken in #42 as the asker's.
func TestACommandInTheDecisionIssueIsTheRepliersCommand(t *testing.T) {
	w := askWithRelations(t)
	w.commentOn(decisionIssue, "maria", "Per API key.")
	w.commentOn(decisionIssue, "coder-agent", "/clarify resolve CLR-42-001 Per API key.")
	checkSettled(t, w, "**Decided** (CLR-42-001, in octo/widgets#42):\n\n> Per API key.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Resolved || c.Resolution != "Per API key." {
		t.Errorf("CLR-42-001 is %s with %q, want resolved per API key", c.Status, c.Resolution)
	}
}

// TestAnOutsidersReplyInTheDecisionIssueWritesNothing: a reader with no part in the
// question replies in the decision issue: nothing is mirrored and nothing answered, and
// GitHub is only read.
func TestAnOutsidersReplyInTheDecisionIssueWritesNothing(t *testing.T) {
	w := askWithRelations(t)
	before := len(w.h.Fake.Requests())
	w.commentOn(decisionIssue, "drive-by", "Per client IP, obviously.")
	for _, r := range w.h.Fake.Requests()[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("an outsider's reply in the decision issue made the app write: %s %s", r.Method, r.Path)
		}
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Errorf("CLR-42-001 is %s after an outsider's reply, want pending", c.Status)
	}
	if n := len(w.replyMirrors(decisionIssue)); n != 0 {
		t.Errorf("%d mirrors of an outsider's reply", n)
	}
	t.Logf("an outsider's reply in a decision issue cost %d requests", len(w.h.Fake.Requests())-before)
}

// TestAnIssueThatOnlyLooksLikeADecisionIssueRelaysNothing: a person opens an issue with a
// decision issue's body pasted in; a reply there is no reply to the question.
func TestAnIssueThatOnlyLooksLikeADecisionIssueRelaysNothing(t *testing.T) {
	w := askWithRelations(t)
	body := w.h.Fake.IssueBody(repo, decisionIssue)
	w.send(w.h.Fake.OpenIssueWithBody(repo, 50, "Decision needed: rate-limit scope (CLR-42-001)", "maria", body))
	w.commentOn(50, "maria", "Per client IP.")
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != clarify.Pending {
		t.Errorf("CLR-42-001 is %s after a reply in a copy of the decision issue, want pending", c.Status)
	}
}
