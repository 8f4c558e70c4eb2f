package asker_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// prose returns n pseudo-random words: text that compresses about as badly as prose.
func prose(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 3 + r.Intn(7); j > 0; j-- {
			b.WriteByte(byte('a' + r.Intn(26)))
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// archived has the agent ask and resolve 30 long questions, one a minute, until the
// app's ledger outgrows its status comment and the oldest move to archive comments.
func (w *world) archived() clarify.Ledger {
	w.t.Helper()
	r := rand.New(rand.NewSource(1))
	for i := 1; i <= 30; i++ {
		w.h.Fake.Advance(time.Minute)
		w.say(agent, fmt.Sprintf("/clarify @maria --non-blocking Question %d: %s?", i, prose(r, 500)))()
		w.h.Fake.Advance(time.Minute)
		w.say(agent, fmt.Sprintf("/clarify resolve %s %s", clarify.FormatID(issue, i), prose(r, 200)))()
	}
	l, err := w.h.Ledger(repo, issue)
	if err != nil {
		w.t.Fatal(err)
	}
	if len(l.Archives) == 0 {
		w.t.Fatal("the ledger never outgrew its status comment")
	}
	return l
}

// archiveReads counts the reads of archive comments among lines.
func archiveReads(l clarify.Ledger, lines []string) int {
	n := 0
	for _, line := range lines {
		for _, id := range l.Archives {
			if strings.HasPrefix(line, fmt.Sprintf("GET /repos/octo/widgets/issues/comments/%d ", id)) {
				n++
			}
		}
	}
	return n
}

func TestReadsArchivesOnlyForAnArchivedClarification(t *testing.T) {
	w := newWorld(t)
	l := w.archived()
	inStatus := l.Clarifications[len(l.Clarifications)-1].ID
	cases := map[string]struct {
		args     []string
		archives int
		out      string
	}{
		"oneInTheStatusComment": {args: []string{inStatus}, archives: 0, out: `"id": "` + inStatus + `"`},
		"oneArchived":           {args: []string{"CLR-42-001"}, archives: len(l.Archives), out: `"question": "Question 1: `},
		"all":                   {archives: len(l.Archives), out: `"id": "CLR-42-030"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w.wire.counts()
			code, out, errs := w.run(asker.Door.Status, append([]string{"--json", "octo/widgets#42"}, tc.args...)...)
			_, _, lines := w.wire.counts()
			if code != 0 || !strings.Contains(out, tc.out) {
				t.Fatalf("bot status: exit %d, %s %s; want %s in it", code, out, errs, tc.out)
			}
			if n := archiveReads(l, lines); n != tc.archives {
				t.Errorf("%d reads of the %d archive comments; want %d\n%s", n, len(l.Archives), tc.archives, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestReadsAnArchiveGoneIsReported deletes an archive comment while the app is away,
// between two reads of one client: the second finds the status comment again and reports
// the archive gone, as reading the issue whole does.
func TestReadsAnArchiveGoneIsReported(t *testing.T) {
	w := newWorld(t)
	l := w.archived()
	c, err := asker.New(asker.Options{API: w.h.GitHub.URL + "/", Token: w.token, Slug: "clarify", Transport: w.wire,
		Now: w.h.Fake.Now, Sleep: w.sleep})
	if err != nil {
		t.Fatal(err)
	}
	ref := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: issue}
	if recs, err := c.Status(context.Background(), ref, ""); err != nil || len(recs) != 30 {
		t.Fatalf("Status: %d records, %v; want 30", len(recs), err)
	}
	w.h.Fake.DeleteComment(repo, l.Archives[0], person)
	w.wire.counts()
	_, err = c.Status(context.Background(), ref, "")
	_, _, lines := w.wire.counts()
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("archive comment %d", l.Archives[0])) {
		t.Fatalf("Status after the archive's deletion: %v; want the archive named", err)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "GET /repos/octo/widgets/issues/42/comments OK") {
		t.Errorf("the read did not look for the status comment again:\n%s", strings.Join(lines, "\n"))
	}
}
