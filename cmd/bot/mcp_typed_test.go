package main

import "testing"

// TestMCPWaitReturnsTheTypedValue: a question asked with `expect` comes back from
// clarify_wait and clarify_status with its answer's value as the JSON it is (here a
// boolean), which the tools' output schemas admit.
func TestMCPWaitReturnsTheTypedValue(t *testing.T) {
	w := newMCPWorld(t)
	w.call("clarify_ask", map[string]any{"issue": 42, "target": "@maria", "question": "Ship the limit on Monday?", "expect": "yes/no"})
	d, _ := w.h.Fake.Comment("octo/widgets", 42, "maria", "Yes, ship it.")
	w.deliver(d)
	rec := w.call("clarify_wait", map[string]any{"issue": 42, "id": "CLR-42-001", "timeout_seconds": 10})
	if rec["status"] != "answered" || rec["answer"] != "Yes, ship it." || rec["value"] != true {
		t.Errorf("clarify_wait: %v; want answered with value true", rec)
	}
	recs := w.call("clarify_status", map[string]any{"issue": 42})
	if list, _ := recs["records"].([]any); len(list) != 1 || list[0].(map[string]any)["value"] != true {
		t.Errorf("clarify_status: %v; want the record with value true", recs)
	}
}
