package action_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// decisionsReads counts, among the requests since from, the pages of issue n's comments
// listed and its comments read one by one.
func (b *bench) decisionsReads(from, n int) (pages, byID int) {
	for _, q := range b.fake.Requests()[from:] {
		switch {
		case q.Method == "GET" && q.Path == "/repos/"+repo+"/issues/"+strconv.Itoa(n)+"/comments":
			pages++
		case q.Route == "GET /repos/{owner}/{repo}/issues/comments/{comment_id}":
			byID++
		}
	}
	return pages, byID
}

// TestOutsidersCommentsOnTheDecisionsIssueDoNotSlowALookup: anyone can comment on the
// closed decisions issue. After 1,000 comments there, a lookup (the offer to a new question,
// the read before a decision is written, a scheduled run's sweep index) still lists one
// page of its comments and reads the app's own past it by their ids, whatever was posted;
// and the memory and the sweep index work as before.
func TestOutsidersCommentsOnTheDecisionsIssueDoNotSlowALookup(t *testing.T) {
	b := newBench(t)
	b.comment("coder-agent", "/clarify @maria Per key or per IP?\nTopic: Rate limit scope")
	b.comment("maria", "Per key.")
	b.comment("coder-agent", "/clarify resolve CLR-42-001")
	n := b.labelled(ledger.DecisionsLabel)
	for i := 0; i < 1000; i++ {
		b.fake.Comment(repo, n, "drive-by", "+1 "+strconv.Itoa(i))
	}

	from := len(b.fake.Requests())
	b.fake.OpenIssue(repo, 60, "Limits again", "maria")
	d, _ := b.fake.Comment(repo, 60, "coder-agent", "/clarify @maria Per key, still?\nTopic: rate limit scope")
	b.ok("issue_comment", b.eventFile(d))
	pages, byID := b.decisionsReads(from, n)
	t.Logf("an ask's lookup with 1,000 others' comments on the decisions issue: %d page(s) listed, %d comment(s) read by id", pages, byID)
	if pages > 1 {
		t.Errorf("the ask's lookup listed %d pages of the decisions issue's comments, want 1", pages)
	}
	if got := b.botCommentsOn(60, "> Per key."); got != 1 {
		t.Errorf("the question on the decided topic was offered the decision %d times, want once", got)
	}

	b.schedule() // its sweep index is made past the 1,000 comments
	from = len(b.fake.Requests())
	b.schedule()
	pages, byID = b.decisionsReads(from, n)
	t.Logf("a scheduled run with 1,000 others' comments on the decisions issue: %d page(s) listed, %d comment(s) read by id", pages, byID)
	if pages > 1 || byID > 2 {
		t.Errorf("a scheduled run listed %d pages and read %d comments by id, want 1 page and at most the app's 2", pages, byID)
	}
	if got := b.botCommentsOn(n, render.SweepIndexMarker); got != 1 {
		t.Errorf("the decisions issue holds %d sweep indexes, want the one found again", got)
	}
}

// botCommentsOn counts github-actions[bot]'s comments in issue n that contain text.
func (b *bench) botCommentsOn(n int, text string) int {
	count := 0
	for _, c := range b.fake.Comments(repo, n) {
		if c.User == "github-actions[bot]" && strings.Contains(c.Body, text) {
			count++
		}
	}
	return count
}
