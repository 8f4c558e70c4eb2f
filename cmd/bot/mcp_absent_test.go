package main

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askedAndHeld is the world's issue with CLR-42-001 taken and a second ask in it that
// Clarify has not taken yet (GitHub holds its delivery): CLR-42-002 may become it, and
// CLR-42-099 can be no ask in flight.
func (w *mcpWorld) askedAndHeld() {
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "coder-agent", "/clarify @maria Per API key or per client IP?")
	w.deliver(d)
	w.h.Fake.Comment("octo/widgets", 42, "coder-agent", "/clarify @maria Which header carries the limit?")
}

// TestMCPAnswersWhatTheLedgerDoesNotHold (issue 40): clarify_wait for an id no ask can
// become is an unknown-clarification error, never a record of zero values; for one an ask
// not taken yet may become, clarify_wait and clarify_status give its record as posted,
// with the id asked about and no zero values.
func TestMCPAnswersWhatTheLedgerDoesNotHold(t *testing.T) {
	w := newMCPWorld(t)
	w.askedAndHeld()
	if text := w.toolErr("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-099", "timeout_seconds": 20}); !strings.HasPrefix(text, "unknown-clarification") ||
		!strings.Contains(text, "CLR-42-001") {
		t.Errorf("clarify_wait CLR-42-099: %q; want unknown-clarification naming the issue's last, CLR-42-001", text)
	}
	res, err := w.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "clarify_wait",
		Arguments: map[string]any{"issue": 42, "id": "CLR-42-002", "timeout_seconds": 1}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Not taken by Clarify yet") {
		t.Fatalf("clarify_wait CLR-42-002: %v %+v; want a result saying Clarify has not taken it yet", err, res)
	}
	rec := w.call("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-002", "timeout_seconds": 1})
	postedWithoutZeros(t, "clarify_wait", rec)
	recs := w.call("clarify_status", map[string]any{"issue": 42, "id": "CLR-42-002"})
	if list, _ := recs["records"].([]any); len(list) != 1 {
		t.Fatalf("clarify_status CLR-42-002: %v; want its one record", recs)
	} else {
		postedWithoutZeros(t, "clarify_status", list[0].(map[string]any))
	}
}

// postedWithoutZeros checks a record of CLR-42-002 not taken yet.
func postedWithoutZeros(t *testing.T, call string, rec map[string]any) {
	t.Helper()
	if rec["status"] != "posted" || rec["id"] != "CLR-42-002" {
		t.Errorf("%s: %v; want status posted and the id asked about", call, rec)
	}
	for _, zero := range []string{"created_at", "asker", "target", "round"} {
		if _, ok := rec[zero]; ok {
			t.Errorf("%s: the posted record carries %s: %v", call, zero, rec[zero])
		}
	}
}

// TestMCPSaysAtOnceWhatItCannotVerify (issue 40): bot mcp believes another app than the
// one Clarify is: clarify_ask is taken, and its result is a cannot-verify error with the
// fix, not a posted record after its take time.
func TestMCPSaysAtOnceWhatItCannotVerify(t *testing.T) {
	w := newMCPWorldWith(t, worldOpts{pump: true, setup: func(string) (string, []string) {
		return "", []string{"CLARIFY_APP_SLUG=other"}
	}})
	text := w.toolErr("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key?", "ref": "step-5"})
	if !strings.HasPrefix(text, "cannot-verify") || !strings.Contains(text, "--app clarify") || !strings.Contains(text, "step-5") {
		t.Errorf("clarify_ask believing another app: %q; want cannot-verify, the fix --app clarify and the ref", text)
	}
}

// TestMCPWithTheTypeScriptSDKsClientOnWhatTheLedgerDoesNotHold is the two above through the
// official TypeScript SDK's client, which checks each result against the tool's output
// schema.
func TestMCPWithTheTypeScriptSDKsClientOnWhatTheLedgerDoesNotHold(t *testing.T) {
	w, _, _ := newProcessWorld(t, true)
	w.askedAndHeld()
	sc := tsClient(t, w, "absent")
	if s := nextStep(t, sc, "unknown"); !s.IsError || !strings.HasPrefix(s.Text, "unknown-clarification") {
		t.Errorf("clarify_wait CLR-42-099: %+v; want an unknown-clarification tool error", s)
	}
	for _, step := range []string{"wait", "status"} {
		s := nextStep(t, sc, step)
		rec := s.Record
		if list, ok := rec["records"].([]any); ok && len(list) == 1 {
			rec = list[0].(map[string]any)
		}
		if s.IsError || s.Thrown != "" || !strings.Contains(s.Text, "Not taken by Clarify yet") {
			t.Errorf("clarify_%s CLR-42-002: %+v; want a result saying Clarify has not taken it yet", step, s)
		}
		postedWithoutZeros(t, "clarify_"+step, rec)
	}

	v, _, _ := newProcessWorld(t, true)
	ask := nextStep(t, tsClient(t, v, "unverified", "CLARIFY_APP_SLUG=other"), "ask")
	if !ask.IsError || !strings.HasPrefix(ask.Text, "cannot-verify") || !strings.Contains(ask.Text, "--app clarify") {
		t.Errorf("clarify_ask believing another app: %+v; want a cannot-verify tool error with the fix", ask)
	}
}
