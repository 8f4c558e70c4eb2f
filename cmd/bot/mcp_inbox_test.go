package main

import "testing"

func TestMCPInboxListsTheQuestionAwaitingALogin(t *testing.T) {
	w := newMCPWorld(t)
	if rec := w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Per API key or per client IP?"}); rec["id"] != "CLR-42-001" {
		t.Fatalf("clarify_ask: %v", rec)
	}
	in := w.call("clarify_inbox", map[string]any{"for": "@maria", "repos": []string{"octo/widgets"}})
	qs, _ := in["questions"].([]any)
	if len(qs) != 1 || in["for"] != "@maria" {
		t.Fatalf("clarify_inbox for @maria: %v; want the one question", in)
	}
	q := qs[0].(map[string]any)
	if q["issue"] != "octo/widgets#42" || q["id"] != "CLR-42-001" || q["via"] != "login" || q["answer_with"] != "/respond CLR-42-001 <answer>" {
		t.Errorf("clarify_inbox's question: %v", q)
	}
	if in := w.call("clarify_inbox", map[string]any{"for": "@bob", "repos": []string{"octo/widgets"}}); in["questions"] == nil {
		t.Errorf("clarify_inbox for @bob: %v; want an empty list", in)
	}
}
