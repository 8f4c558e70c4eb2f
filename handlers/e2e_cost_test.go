package handlers_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestRequestsPerEventDoNotGrowWithTheIssue counts the reads an answer costs in an issue
// of 100 and of 10,000 comments, once the app has run there: with the ledger's cursor
// remembered, an event reads only the comments since it. `go test ./handlers -run
// TestRequestsPerEvent -v` prints the figures.
func TestRequestsPerEventDoNotGrowWithTheIssue(t *testing.T) {
	for _, size := range []int{100, 10_000} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			w := &driver{t: t, h: newHarness(t)}
			for i := 0; i < size; i++ {
				w.h.Fake.Comment(repo, 42, "drive-by", "+1") // deliveries dropped: nothing asked yet
			}
			w.h.Fake.Advance(time.Minute)
			w.comment("coder-agent", "/clarify @maria Per key or per IP?")
			w.h.Fake.Advance(time.Minute)
			w.h.Fake.ResetRequests()
			w.comment("maria", "Per key.")
			reads := 0
			for _, r := range w.h.Fake.Requests() {
				if r.Method == http.MethodGet {
					reads++
				}
			}
			t.Logf("%d comments: %d requests for the answer, %d of them reads", size, len(w.h.Fake.Requests()), reads)
			if reads > 3 {
				t.Errorf("%d reads for one answer in an issue of %d comments, want at most 3", reads, size)
			}
		})
	}
}

// TestABurstInOneIssueCoalescesItsStatusEdits sends five comments of one issue at once:
// the first run folds them all into one save, and the runs after it find nothing new, so
// the status comment is written once, not five times.
func TestABurstInOneIssueCoalescesItsStatusEdits(t *testing.T) {
	w := &driver{t: t, h: newHarness(t)}
	w.comment("coder-agent", "/clarify @maria Per key or per IP?")
	w.h.Fake.ResetRequests()
	var burst []fakegithub.Delivery
	for _, body := range []string{"/clarify @maria Which burst size?", "/clarify @maria Which window?",
		"/clarify @maria Which header?", "/clarify @maria Which status code?", "/clarify @maria Which docs page?"} {
		d, _ := w.h.Fake.Comment(repo, 42, "coder-agent", body)
		burst = append(burst, d)
	}
	sendAll(t, w, burst...)

	edits := 0
	for _, r := range w.h.Fake.Requests() {
		if r.Route == "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}" {
			edits++
		}
	}
	if n := len(w.ledger().Clarifications); n != 6 {
		t.Fatalf("%d clarifications, want 6", n)
	}
	t.Logf("5 asks at once: %d status edits", edits)
	if edits > 2 {
		t.Errorf("%d status edits for one burst, want them coalesced (at most 2: a run may start before the last comment lands)", edits)
	}
}
