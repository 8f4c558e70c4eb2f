package action_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// TestAskerRefAndStateInActionMode is the App mode's test (handlers) as `bot action` runs:
// an ask through a comment with a Ref: line and one through a dispatch with ref and state,
// each found by its ref in the status comment's ledger read without the key, answered, and
// woken with its ref and state byte for byte; a retried ask of either kind is asked once.
func TestAskerRefAndStateInActionMode(t *testing.T) {
	b := newBench(t)
	b.fake.SetFile(repo, ".github/clarify.yml", "notify:\n  dispatch: true\n")
	state := "thread-é漢字 \"q\" --> <b>&</b> " + strings.Repeat("eyJzZXNzaW9uIjoiYWJjIn0=", 300)
	dispatchRef := `run 7 "é" --> step/2`
	askByDispatch := func() {
		d := b.fake.Dispatch(repo, "coder-agent", "clarify", map[string]any{"issue": 42, "action": "ask", "target": "@maria",
			"question": "Which header carries the key?", "context": map[string]any{"ref": dispatchRef, "state": state}})
		b.ok("repository_dispatch", b.eventFile(d))
	}
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?\nRef: comment-step-1")
	askByDispatch()

	got := b.byRef()
	if got["comment-step-1"].ID != "CLR-42-001" || got[dispatchRef].ID != "CLR-42-002" || got[dispatchRef].State != state {
		t.Fatalf("by ref: %q → %s, %q → %s (state kept: %v)", "comment-step-1", got["comment-step-1"].ID,
			dispatchRef, got[dispatchRef].ID, got[dispatchRef].State == state)
	}
	comments := len(b.fake.Comments(repo, 42))
	b.comment("coder-agent", "/clarify @maria Per API key or per client IP?\nRef: comment-step-1")
	askByDispatch()
	if n := len(b.fake.Comments(repo, 42)); len(b.byRef()) != 2 || n != comments+1 {
		t.Fatalf("the retries made %d clarifications and %d comments besides the retried one:\n%s", len(b.byRef()), n-comments-1, b.fake.Transcript(repo, 42))
	}

	b.comment("maria", "/respond CLR-42-001 Per API key.")
	b.comment("maria", "/respond CLR-42-002 X-Api-Key.")
	b.wantWakeUps(t, "clarify-answered CLR-42-001 answered 1", "clarify-answered CLR-42-002 answered 1")
	for i, want := range []wire.AskContext{{Ref: "comment-step-1"}, {Ref: dispatchRef, State: state}} {
		var p wire.WakePayload
		err := json.Unmarshal(b.fake.Dispatches(repo)[i].ClientPayload, &p)
		var got wire.AskContext
		if p.Context != nil {
			got = *p.Context
		}
		if err != nil || p.Context == nil || got != want {
			t.Errorf("wake-up %d: context ref %q (%v); want ref %q; state given back byte for byte: %v",
				i, got.Ref, err, want.Ref, got.State == want.State)
		}
	}
}

// byRef maps each ref to its clarification, as the asker's client finds them without the
// key: in the ledger of github-actions[bot]'s status comment, read unverified.
func (b *bench) byRef() map[string]clarify.Clarification {
	b.t.Helper()
	for _, c := range b.fake.Comments(repo, 42) {
		if c.User != fakegithub.ActionsBotLogin || !render.IsStatus(c.Body) {
			continue
		}
		l, err := render.DecodeLedgerUnverified(c.Body)
		if err != nil {
			b.t.Fatal(err)
		}
		out := map[string]clarify.Clarification{}
		for _, c := range l.Clarifications {
			out[c.Ref] = c
		}
		if len(out) != len(l.Clarifications) {
			b.t.Fatalf("%d clarifications under %d refs", len(l.Clarifications), len(out))
		}
		return out
	}
	b.t.Fatal("no status comment")
	return nil
}
