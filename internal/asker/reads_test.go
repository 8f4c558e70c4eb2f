package asker_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/render"
)

// The figures of a read's cost on long issues: `go test ./internal/asker -run TestReads -v`.

// talk has drive-bys write n comments of size bytes in the issue, gap apart on GitHub's
// clock, which the app never hears of (deliveries dropped), as a long discussion nobody
// asked anything in.
func (w *world) talk(n, size int, gap time.Duration) {
	body := strings.Repeat("Same here, any news? ", size/21+1)[:size]
	for i := 0; i < n; i++ {
		w.h.Fake.Comment(repo, issue, fmt.Sprintf("drive-by-%d", i%50), body)
		w.h.Fake.Advance(gap)
	}
}

// askAbout asks maria question through bot ask and returns the id.
func (w *world) askAbout(question string) string {
	w.t.Helper()
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", question)
	if code != 0 {
		w.t.Fatalf("bot ask: exit %d, %s %s", code, out, errs)
	}
	return strings.TrimSpace(out)
}

// lastBy is the id of the newest comment login wrote in the issue.
func (w *world) lastBy(login string) int64 {
	var id int64
	for _, c := range w.h.Fake.Comments(repo, issue) {
		if c.User == login {
			id = c.ID
		}
	}
	return id
}

// statusComment is the app's status comment of the issue.
func (w *world) statusComment() int64 {
	for _, c := range w.h.Fake.Comments(repo, issue) {
		if c.User == w.h.Fake.BotLogin() && render.IsStatus(c.Body) {
			return c.ID
		}
	}
	w.t.Fatal("no status comment")
	return 0
}

// TestReadsAnIdleHourOfAWaitOnALongIssue waits an hour on a clarification of an issue of
// 2,000 comments while an outsider reacts to the question every minute: a reaction changes
// the issue's pages, not the status comment the wait reads.
func TestReadsAnIdleHourOfAWaitOnALongIssue(t *testing.T) {
	cases := map[string]struct {
		statusFirst bool
		most        int
	}{
		// The issue's first clarification was asked early: its status comment is on page 1.
		"statusCommentOnTheFirstPage": {statusFirst: true, most: 15},
		// The first clarification comes after 2,000 comments: its status comment is among
		// the comments updated in the last minutes, not on the first page.
		"statusCommentAfterTwoThousandComments": {most: 15},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			if tc.statusFirst {
				w.askAbout("Which header carries the limit?")
			}
			w.talk(2000, 300, time.Minute) // 33 hours of discussion
			id := w.askAbout("Per API key or per client IP?")
			question := w.lastBy(agent)
			for m := 1; m <= 60; m++ {
				w.after(time.Duration(m)*time.Minute, func() { w.h.Fake.React(repo, question, fmt.Sprintf("outsider-%d", m), "+1") })
			}
			w.wire.counts()
			code, out, errs := w.run(asker.Door.Wait, "octo/widgets#42", id, "--timeout", "1h")
			notModified, counted, _ := w.wire.counts()
			t.Logf("bot wait, an idle hour, 2,000 comments, 60 reactions: %d requests GitHub counts, %d answered 304", counted, notModified)
			if code != asker.ExitStillOpen {
				t.Fatalf("bot wait: exit %d, %s %s; want 124", code, out, errs)
			}
			if counted > tc.most {
				t.Errorf("an idle hour made %d requests that count against the rate limit; want at most %d", counted, tc.most)
			}
		})
	}
}

// TestReadsTwentyAtOnceOfAnEighteenMegabyteIssue reads the records of an issue of 2,000
// comments of 9 KB twenty times at once, and samples the heap meanwhile: by twenty clients
// (twenty bot status, each finding the status comment), and by one (bot mcp answering
// twenty calls).
func TestReadsTwentyAtOnceOfAnEighteenMegabyteIssue(t *testing.T) {
	switch {
	case testing.Short():
		t.Skip("builds an issue of 18 MB")
	case raceDetector:
		t.Skip("measures the heap, which -race's own allocations would swell: run without -race")
	}
	w := newWorld(t)
	w.talk(2000, 9000, 0)
	id := w.askAbout("Per API key or per client IP?")
	one, err := asker.New(asker.Options{API: w.h.GitHub.URL + "/", Token: w.token, Slug: "clarify", Transport: w.wire})
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func() error{
		"twenty clients": func() error {
			if code, out, errs := w.run(asker.Door.Status, "octo/widgets#42", id); code != 0 {
				return fmt.Errorf("bot status: exit %d, %s %s", code, out, errs)
			}
			return nil
		},
		"one client": func() error {
			_, err := one.Status(context.Background(), clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: issue}, id)
			return err
		},
	}
	for _, name := range []string{"twenty clients", "one client"} {
		grew, alloc := heapDuring(t, 20, reads[name])
		t.Logf("20 reads at once of an issue of 18 MB, %s: heap peaked %d MB above where it was (GOGC=20, the in-memory GitHub's included); %d MB allocated",
			name, grew>>20, alloc>>20)
		if grew>>20 > 100 {
			t.Errorf("%s: the heap grew by %d MB; want at most 100", name, grew>>20)
		}
	}
}

// heapDuring runs read n times at once and returns how far the heap grew at its peak
// (sampled every millisecond) and how much was allocated.
func heapDuring(t *testing.T, n int, read func() error) (grew, alloc uint64) {
	// The garbage collector runs when the heap doubles (GOGC=100): on the harness's own
	// 40 MB the peak would mostly be garbage not yet collected. At 20 the peak is what the
	// reads hold, give or take a fifth.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	runtime.GC()
	var before, m runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := before.HeapAlloc
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := read(); err != nil {
				t.Error(err)
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	for sampling := true; sampling; {
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapAlloc)
		select {
		case <-done:
			sampling = false
		case <-time.After(time.Millisecond):
		}
	}
	runtime.ReadMemStats(&m)
	return peak - before.HeapAlloc, m.TotalAlloc - before.TotalAlloc
}

// slowGitHub answers each request after latency of the world's time, as github.com takes
// a few hundred milliseconds for a page of comments.
type slowGitHub struct {
	w       *world
	latency time.Duration
	next    http.RoundTripper
}

func (s *slowGitHub) RoundTrip(r *http.Request) (*http.Response, error) {
	s.w.h.Fake.Advance(s.latency)
	return s.next.RoundTrip(r)
}

// TestReadsAWaitOnATenThousandCommentIssueEndsInItsTime waits as clarify_wait does (one
// client, 25 s a call, called again while still open) on an issue of 10,000 comments whose
// requests each take latency of the world's time: every call returns within its 25 s, and
// where finding the status comment takes longer than that, the call's record says so (status
// reading, next wait: never an empty status) and the next call goes on with it.
func TestReadsAWaitOnATenThousandCommentIssueEndsInItsTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an issue of 10,000 comments")
	}
	w := newWorld(t)
	w.talk(10_000, 200, 0)
	id := w.askAbout("Per API key or per client IP?")
	slow := &slowGitHub{w: w, next: w.wire.next}
	w.wire.next = slow
	ref := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: issue}
	for _, latency := range []time.Duration{300 * time.Millisecond, 800 * time.Millisecond} {
		t.Run(latency.String(), func(t *testing.T) {
			slow.latency = 0
			c, err := asker.New(asker.Options{API: w.h.GitHub.URL + "/", Token: w.token, Slug: "clarify", Transport: w.wire,
				Now: w.h.Fake.Now, Sleep: w.sleep})
			if err != nil {
				t.Fatal(err)
			}
			slow.latency = latency
			var calls []string
			for call := 1; call <= 5; call++ {
				start := w.h.Fake.Now()
				rec, err := c.Wait(context.Background(), ref, id, 25*time.Second)
				took := w.h.Fake.Now().Sub(start)
				calls = append(calls, fmt.Sprintf("%s (status %q)", took, rec.Status))
				if !errors.Is(err, asker.ErrStillOpen) || rec.ID != id {
					t.Fatalf("call %d: %+v, %v; want %s still open", call, rec, err, id)
				}
				if took > 25*time.Second {
					t.Errorf("call %d returned after %s, past its 25 s", call, took)
				}
				if rec.Status != clarify.StatusReading {
					break
				}
				if rec.Next != clarify.NextWait {
					t.Errorf("call %d: a record still being read says next %q; want %q", call, rec.Next, clarify.NextWait)
				}
			}
			t.Logf("clarify_wait on 10,000 comments, %s a request: calls returned after %s", latency, strings.Join(calls, ", "))
			if !strings.Contains(calls[len(calls)-1], "pending") {
				t.Errorf("no call read the record")
			}
		})
	}
}

// commentRoute is the route a read of the status comment by its id takes.
const commentRoute = "GET /repos/{owner}/{repo}/issues/comments/{comment_id}"

// waitFor runs bot wait on id for up to 3 hours and returns its exit code, stderr and the
// requests it made, in order.
func (w *world) waitFor(id string) (int, string, []string) {
	w.wire.counts()
	code, _, errs := w.run(asker.Door.Wait, "octo/widgets#42", id, "--timeout", "3h")
	_, _, lines := w.wire.counts()
	return code, errs, lines
}

// afterLine is the line after the first of lines that holds mark, or "".
func afterLine(lines []string, mark string) string {
	for i, l := range lines {
		if strings.Contains(l, mark) && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

func TestReadsAFaultOnTheStatusCommentIsRetried(t *testing.T) {
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusTooManyRequests} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			w := newWorld(t)
			id := w.ask()
			w.after(3*time.Minute, func() { w.h.Fake.FailNext(commentRoute, status, 1) })
			w.after(7*time.Minute, w.say(person, "Per API key."))
			code, errs, lines := w.waitFor(id)
			if code != asker.ExitAnswered {
				t.Fatalf("bot wait: exit %d, %s; want the answer despite the %d", code, errs, status)
			}
			next := afterLine(lines, http.StatusText(status))
			if !strings.HasPrefix(next, "GET /repos/octo/widgets/issues/comments/") {
				t.Errorf("after the %d the wait sent %q; want the status comment read again\n%s", status, next, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestReadsAStatusCommentIdleForWeeksIsFoundByListing reads a clarification asked after
// 150 comments (its status comment on the second page) and left alone for three weeks while
// the discussion went on: no recent window holds the status comment, so the read lists the
// pages up to it, and answers all the same.
func TestReadsAStatusCommentIdleForWeeksIsFoundByListing(t *testing.T) {
	w := newWorld(t)
	w.talk(150, 100, 0)
	id := w.askAbout("Per API key or per client IP?")
	w.h.Fake.Advance(21 * 24 * time.Hour)
	w.talk(250, 100, time.Minute)
	w.wire.counts()
	code, out, errs := w.run(asker.Door.Status, "octo/widgets#42", id)
	_, counted, _ := w.wire.counts()
	if code != 0 || !strings.Contains(out, id) {
		t.Fatalf("bot status: exit %d, %q %s; want the record of %s", code, out, errs, id)
	}
	// The first page, the recent windows (the last holds more than a page: it stops
	// there), the second page, which holds it, and the config.
	if counted > 6 {
		t.Errorf("bot status made %d requests; want at most 6", counted)
	}
}

func TestReadsADeletedStatusCommentIsFoundAgain(t *testing.T) {
	w := newWorld(t)
	id := w.ask()
	gone := w.statusComment()
	// maria deletes the status comment; the app rebuilds the ledger in a new one.
	w.after(3*time.Minute, func() { w.deliver(w.h.Fake.DeleteComment(repo, gone, person)) })
	w.after(7*time.Minute, w.say(person, "Per API key."))
	code, errs, lines := w.waitFor(id)
	if code != asker.ExitAnswered {
		t.Fatalf("bot wait: exit %d, %s; want the answer read from the new status comment", code, errs)
	}
	if w.statusComment() == gone {
		t.Fatal("the app kept the deleted status comment")
	}
	if next := afterLine(lines, "Not Found"); next != "GET /repos/octo/widgets/issues/42/comments OK" {
		t.Errorf("after the 404 the wait sent %q; want the issue's comments listed to find the new one\n%s", next, strings.Join(lines, "\n"))
	}
}

// TestReadsAStatusCommentEditedByHandIsNotBelieved edits the status comment while the app
// is away: its ledger no longer verifies, the read finds the status comment again and
// reports it, as reading the issue whole does, rather than read the edit.
func TestReadsAStatusCommentEditedByHandIsNotBelieved(t *testing.T) {
	w := newWorld(t)
	id := w.ask()
	status := w.statusComment()
	w.after(3*time.Minute, func() {
		w.pump = false
		c, _ := w.h.Fake.CommentByID(status)
		w.h.Fake.EditComment(repo, status, person, strings.Replace(c.Body, "clarify:ledger v1 ", "clarify:ledger v1 x", 1))
	})
	code, errs, lines := w.waitFor(id)
	if code != asker.ExitError || !strings.Contains(errs, fmt.Sprintf("status comment %d", status)) {
		t.Fatalf("bot wait: exit %d, %s; want 1 and the status comment named", code, errs)
	}
	if n := len(lines); n < 2 || lines[n-1] != "GET /repos/octo/widgets/issues/42/comments OK" ||
		lines[n-2] != fmt.Sprintf("GET /repos/octo/widgets/issues/comments/%d OK", status) {
		t.Errorf("the wait's last requests: %s; want the edit read, then the issue's comments listed", strings.Join(lines, "\n"))
	}
}

// TestReadsAStatusCommentPutBackIsNotBelieved puts an older body of the status comment
// back while the app is away: it verifies (the app wrote it), but it is older than what
// the client read there, and believing it would undo the escalation the wait saw.
func TestReadsAStatusCommentPutBackIsNotBelieved(t *testing.T) {
	w := newWorld(t)
	id := w.ask()
	status := w.statusComment()
	old, _ := w.h.Fake.CommentByID(status)
	w.after(2*time.Minute, w.say(person, "/clarify escalate CLR-42-001 not mine to decide"))
	w.after(10*time.Minute, func() {
		w.pump = false
		w.h.Fake.EditComment(repo, status, person, old.Body)
	})
	code, errs, _ := w.waitFor(id)
	if code != asker.ExitError || !strings.Contains(errs, "older than") {
		t.Fatalf("bot wait: exit %d, %s; want 1 and the older revision named", code, errs)
	}
}
