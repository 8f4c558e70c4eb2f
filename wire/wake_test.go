package wire

import (
	"encoding/json"
	"testing"
)

// wakeWith is a settled wake-up with, by the bits of mask, a context, a decision, an
// answer and a value.
func wakeWith(mask int) WakePayload {
	p := WakePayload{V: 1, Issue: 42, ID: "CLR-42-001", Status: "resolved", Round: 1, Asker: "coder-agent", Target: "maria",
		Key: "CLR-42-001/1/resolved"}
	if mask&1 != 0 {
		p.Context = &AskContext{Ref: "run-981/step-3"}
	}
	if mask&2 != 0 {
		p.Decision = "Ship on Monday."
	}
	if mask&4 != 0 {
		p.Answer = "Yes, ship it."
	}
	if mask&8 != 0 {
		p.Value = "true"
	}
	return p
}

// TestFitWakeKeepsTenKeys: whatever a wake-up carries, its payload has at most GitHub's 10
// top-level keys, and of the context, the decision, the answer and the value it keeps the
// first two present, in that order.
func TestFitWakeKeepsTenKeys(t *testing.T) {
	optional := []string{"context", "decision", "answer", "value"}
	for mask := range 16 {
		p := wakeWith(mask)
		raw, err := FitWake(p)
		var keys map[string]json.RawMessage
		if err != nil || json.Unmarshal(raw, &keys) != nil {
			t.Fatalf("FitWake(%+v) = %s, %v", p, raw, err)
		}
		var want []string
		for i, k := range optional {
			if mask&(1<<i) != 0 && len(want) < 2 {
				want = append(want, k)
			}
		}
		got := 0
		for _, k := range want {
			if _, ok := keys[k]; ok {
				got++
			}
		}
		if len(keys) > 10 || len(keys) != 8+len(want) || got != len(want) || keys["key"] == nil {
			t.Errorf("context, decision, answer, value = %04b: %d keys, want the eight and %v: %s", mask, len(keys), want, raw)
		}
	}
}
