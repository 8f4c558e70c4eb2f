package handlers_test

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/ledger"
)

// TestADecisionsLabelPointedAtAPersonsIssueIsNotFollowed: someone who may edit labels
// points clarify:decisions at a person's issue. A fresh process (nothing remembered of where
// the decisions are) posts none of its memory there: the next decision goes into an issue of
// the app's, the label is pointed at it, and the log says so; the memory works from there.
func TestADecisionsLabelPointedAtAPersonsIssueIsNotFollowed(t *testing.T) {
	var logs testenv.Buffer
	w := &driver{t: t, h: newHarnessLogging(t, &logs, nil)}
	settleCacheScope(w)
	w.h.Fake.OpenIssueWithBody(repo, 80, "Crash on start", "drive-by", "It crashes.\n")
	w.h.Fake.SetLabel(repo, ledger.DecisionsLabel, "ededed", "Clarify's decision memory: issue #80")
	w.h.Stop()
	if _, err := w.h.Start(t.Context()); err != nil {
		t.Fatal(err)
	}

	w.h.Fake.OpenIssue(repo, 81, "Uploads", "maria")
	w.commentOn(81, "coder-agent", "/clarify @maria How often should a failed upload be retried?\nTopic: Upload retries")
	w.commentOn(81, "maria", "Three times, then give up.")
	w.commentOn(81, "coder-agent", "/clarify resolve CLR-81-001")

	if got := w.botText(80); got != "" || w.h.Fake.IssueBody(repo, 80) != "It crashes.\n" {
		t.Fatalf("the app wrote into the person's issue #80:\n%s", got)
	}
	n, m := w.memory()
	if n == 80 || len(m.Decisions) != 1 || m.Decisions[0].ID != "CLR-81-001" {
		t.Fatalf("the label names #%d holding %+v, want an issue of the app's with CLR-81-001", n, m.Decisions)
	}
	if !strings.Contains(logs.String(), "not provably the app's") {
		t.Errorf("the log does not say the label was not followed")
	}
	w.h.Fake.OpenIssue(repo, 90, "Uploads again", "maria")
	w.commentOn(90, "coder-agent", "/clarify @maria Retries for large uploads?\nTopic: upload retries")
	if got := w.botText(90); !strings.Contains(got, "> Three times, then give up.") {
		t.Errorf("the next question on the topic was not offered the decision:\n%s", got)
	}
}
