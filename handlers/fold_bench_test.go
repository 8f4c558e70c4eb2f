package handlers

import (
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// BenchmarkEventsOfALongIssueInActionMode: a run of bot action (the app writes as the
// shared github-actions[bot], so its comments are told by their seals) on an issue of 400
// comments, half of them the app's refusals of asks made while it was closed, all before
// the ledger's cursor, and one new comment to fold.
func BenchmarkEventsOfALongIssueInActionMode(b *testing.B) {
	base := NewBase(Options{AppSlug: "github-actions", LedgerKey: []byte("0123456789abcdef0123456789abcdef")})
	ref := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 42}
	keys := base.reader().Keys.Issue(ref.Owner, ref.Repo, ref.Number)
	snap := &issueRun{ref: ref, snapshot: snapshot{ledger: clarify.NewLedger(42), hasLedger: true}}
	id := int64(1000)
	for i := 0; i < 200; i++ {
		snap.comments = append(snap.comments, comment(id, "coder-agent", foldT0, "/clarify @maria Per key?"))
		key := clarify.ReplyKey(id)
		id++
		body := render.Reply(clarify.Reply{Kind: clarify.ReplyRefusal, Code: clarify.CodeIssueClosed, To: "coder-agent",
			Quote: "/clarify @maria Per key?", Problem: "this issue is closed"}, snap.ledger, key)
		snap.comments = append(snap.comments, comment(id, ledger.ActionsLogin, foldT0, keys.Seal(body, render.Marker(key))))
		id++
	}
	snap.ledger.Cursor = id - 1
	snap.comments = append(snap.comments, comment(id, "maria", foldT0.Add(time.Minute), "Per key."))
	trig := trigger{Kind: triggerTick, At: foldT0.Add(time.Hour)}
	b.ResetTimer()
	for range b.N {
		if ins := eventsOf(base, snap, trig); len(ins) != 1 {
			b.Fatalf("%d inputs, want the new comment alone", len(ins))
		}
	}
}
