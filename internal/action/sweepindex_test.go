package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
)

// indexComment is the app's comment holding the sweep index, in the decisions issue.
func (b *bench) indexComment() (issue int, c fakegithub.Comment) {
	b.t.Helper()
	issue, _ = b.decisions()
	for _, c := range b.fake.Comments(repo, issue) {
		if c.User == fakegithub.ActionsBotLogin && strings.Contains(c.Body, render.SweepIndexMarker) {
			return issue, c
		}
	}
	b.t.Fatalf("no sweep index in #%d", issue)
	return 0, fakegithub.Comment{}
}

// TestScheduledRunReadsAnIssueThatChanged: the answer's own run never happened (cancelled
// as a pending run), and an answer is no command, so only the issue's new updated_at tells
// the scheduled run that the index's knowledge of the issue is out of date. It reads the
// issue and applies the answer; the issue beside it, unchanged, is not read.
func TestScheduledRunReadsAnIssueThatChanged(t *testing.T) {
	b := newBench(t)
	b.fake.OpenIssue(repo, 43, "Cache the schema", "maria")
	b.comment("coder-agent", askWithFallback)
	d, _ := b.fake.Comment(repo, 43, "coder-agent", "/clarify @maria Cache per tenant or per user?")
	b.ok("issue_comment", b.eventFile(d))
	b.schedule()
	b.fake.Advance(time.Minute)
	b.commentOnly("maria", "Per API key.")
	before := len(b.fake.Requests())
	r := b.schedule()
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("the scheduled run left the answer unapplied: %s\n%s", c.Status, r.stdout)
	}
	for _, q := range b.fake.Requests()[before:] {
		if q.Method == "GET" && q.Path == "/repos/octo/widgets/issues/43/comments" {
			t.Errorf("the scheduled run read #43, which the index knew unchanged and not due")
		}
	}
}

// TestASweepIndexThatDoesNotVerifyIsNotTrusted: the index comment is replaced by one
// signed with another key that says the question's deadline is ten days away. The next
// scheduled run past the real deadline reads the issue anyway and marks it stale.
func TestASweepIndexThatDoesNotVerifyIsNotTrusted(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.schedule()
	issue, c := b.indexComment()
	real, err := (render.Keyring{Current: []byte(ledgerKey)}).Issue("octo", "widgets", issue).DecodeSweepIndex(c.Body)
	if err != nil || real[42].Seen.IsZero() {
		t.Fatalf("the index as written: %v, %v", real, err)
	}
	forged, err := render.EncodeSweepIndex(map[int]render.Swept{42: {Seen: real[42].Seen, Due: b.fake.Now().Add(240 * time.Hour)}},
		[]byte("another key of forty characters or more!!"))
	if err != nil {
		t.Fatal(err)
	}
	b.fake.EditComment(repo, c.ID, "maria", forged)
	b.fake.Advance(31 * time.Minute)
	b.schedule()
	if st := b.clar("CLR-42-001").Status; st != clarify.Stale {
		t.Fatalf("after the deadline, with a forged index: %s, want stale", st)
	}
}

// TestASweepIndexGitHubFailsToSaveCostsOnlyReads: the scheduled run applies an answer whose
// own run never happened, but GitHub answers the edit of the index 502. The run still exits
// 0, the answer stands, and the next run, whose index is the old one, reads the issue again
// and saves the index.
func TestASweepIndexGitHubFailsToSaveCostsOnlyReads(t *testing.T) {
	const editComment = "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}"
	b := newBench(t)
	b.comment("coder-agent", askWithFallback)
	b.schedule()
	b.fake.Advance(time.Minute)
	b.commentOnly("maria", "Per API key.")
	b.fake.PassNext(editComment, 1)      // the status comment's edit
	b.fake.FailNext(editComment, 502, 1) // an edit answered 502 is not sent again: it may have happened
	b.schedule()                         // fails the test unless it exits 0
	if c := b.clar("CLR-42-001"); c.Status != clarify.Answered {
		t.Fatalf("the answer: %s", c.Status)
	}
	_, before := b.indexComment()
	b.fake.Advance(time.Minute)
	start := len(b.fake.Requests())
	b.schedule()
	read := false
	for _, q := range b.fake.Requests()[start:] {
		read = read || (q.Method == "GET" && q.Path == "/repos/octo/widgets/issues/42/comments")
	}
	if _, after := b.indexComment(); !read || after.Body == before.Body {
		t.Errorf("after an index that was not saved, the next run read #42: %v; saved the index: %v", read, after.Body != before.Body)
	}
}
