package wire

import (
	"encoding/json"
	"testing"
)

// TestFitWakeKeepsTenKeys: whatever a wake-up carries, its payload has at most GitHub's 10
// top-level keys, and the value is left out only where all four optional keys would come.
func TestFitWakeKeepsTenKeys(t *testing.T) {
	for mask := range 16 {
		p := WakePayload{V: 1, Issue: 42, ID: "CLR-42-001", Status: "resolved", Round: 1, Asker: "coder-agent", Target: "maria"}
		if mask&1 != 0 {
			p.Answer = "Yes, ship it."
		}
		if mask&2 != 0 {
			p.Decision = "Ship on Monday."
		}
		if mask&4 != 0 {
			p.Context = &AskContext{Ref: "run-981/step-3"}
		}
		if mask&8 != 0 {
			p.Value = "true"
		}
		raw, err := FitWake(p)
		var keys map[string]json.RawMessage
		if err != nil || json.Unmarshal(raw, &keys) != nil {
			t.Fatalf("FitWake(%+v) = %s, %v", p, raw, err)
		}
		_, hasValue := keys["value"]
		if len(keys) > 10 || hasValue != (mask&8 != 0 && mask&7 != 7) {
			t.Errorf("FitWake with answer, decision, context, value = %04b: %d keys, value kept %v: %s", mask, len(keys), hasValue, raw)
		}
	}
}
