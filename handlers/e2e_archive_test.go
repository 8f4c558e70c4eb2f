package handlers_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// words returns n pseudo-random words: text that compresses about as badly as prose.
func words(r *rand.Rand, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := make([]byte, 3+r.Intn(7))
		for j := range w {
			w[j] = letters[r.Intn(len(letters))]
		}
		b.Write(w)
		b.WriteByte(' ')
	}
	return b.String()
}

// fullLedger reads the status comment's ledger and every archive it lists, as the app
// does, and returns it with the characters those comments hold together.
func (w *driver) fullLedger() (l clarify.Ledger, archives, chars int) {
	w.t.Helper()
	l = w.ledger()
	_, status := w.statusComment()
	chars = len([]rune(status))
	byID := map[int64]string{}
	for _, c := range w.h.Fake.Comments(repo, 42) {
		byID[c.ID] = c.Body
	}
	for _, id := range l.Archives {
		a, err := render.DecodeArchive(byID[id], issueKey(w.h))
		if err != nil {
			w.t.Fatalf("archive %d: %v", id, err)
		}
		l.Clarifications = append(l.Clarifications, a.Clarifications...)
		chars += len([]rune(byID[id]))
	}
	return l, len(l.Archives), chars
}

func TestLedgerOutgrowsOneCommentWithNothingLost(t *testing.T) {
	t.Parallel() // the longest test here: the others run beside it
	w := &driver{t: t, h: newHarness(t)}
	r := rand.New(rand.NewSource(1))
	const n = 30
	questions := map[string]string{}
	for i := 1; i <= n; i++ {
		q := fmt.Sprintf("Question %d: %s?", i, words(r, 500))
		// A minute between comments, as in a real issue: the app reads only what is newer
		// than its cursor (GitHub's since, in whole seconds), and on a frozen clock every
		// comment is "new", so each event would read and decode the whole issue again.
		w.h.Fake.Advance(time.Minute)
		w.comment("coder-agent", "/clarify @maria --non-blocking "+q)
		id := clarify.FormatID(42, i)
		questions[id] = q
		w.h.Fake.Advance(time.Minute)
		w.comment("coder-agent", fmt.Sprintf("/clarify resolve %s %s", id, words(r, 200)))
	}
	for _, c := range w.h.Fake.Comments(repo, 42) {
		if len([]rune(c.Body)) > 65536 {
			t.Fatalf("comment %d is %d characters: GitHub would refuse it", c.ID, len([]rune(c.Body)))
		}
	}
	l, archives, chars := w.fullLedger()
	if archives == 0 || chars <= 65536 {
		t.Fatalf("%d archive comment(s), %d characters with the status comment: the test's ledger never outgrew one comment", archives, chars)
	}
	if len(l.Clarifications) != n {
		t.Fatalf("%d clarifications across the status comment and %d archive(s), want %d", len(l.Clarifications), archives, n)
	}
	for _, c := range l.Clarifications {
		if c.Status != clarify.Resolved || c.Thread[0].Text != questions[c.ID] {
			t.Errorf("%s: %s, question kept whole: %v", c.ID, c.Status, c.Thread[0].Text == questions[c.ID])
		}
	}

	// The archived ones are still there for the protocol: shown on demand, counted in the sequence.
	w.comment("maria", "/clarify show CLR-42-001")
	if n := w.botComments("Question 1: "); n < 2 {
		t.Errorf("/clarify show of an archived clarification did not show its question")
	}
	w.comment("coder-agent", "/clarify @maria One more?")
	if _, ok := w.ledger().Find(clarify.FormatID(42, n+1)); !ok {
		t.Errorf("the next ask is not %s", clarify.FormatID(42, n+1))
	}
	w.replayAll()
}
