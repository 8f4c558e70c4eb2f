package asker_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

// TestAskWithExpectWaitsForAReplyThatFits: `bot ask --expect`, by comment and by dispatch,
// asks a typed question; a reply that does not fit does not end `bot wait`, and the one
// that fits does, with its value in the record.
func TestAskWithExpectWaitsForAReplyThatFits(t *testing.T) {
	for name, extra := range map[string][]string{"byComment": nil, "byDispatch": {"--dispatch"}} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			args := append([]string{"octo/widgets#42", "@maria", "How many workers?", "--expect", "number 1..100", "--json"}, extra...)
			code, out, errs := w.run(asker.Door.Ask, args...)
			var rec clarify.AskRecord
			if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec.ID != "CLR-42-001" {
				t.Fatalf("bot ask --expect: exit %d, stdout %s, stderr %s", code, out, errs)
			}
			w.after(5*time.Minute, w.say(person, "about twenty"))
			w.after(10*time.Minute, w.say(person, "20 workers"))
			code, out, errs = w.run(asker.Door.Wait, "octo/widgets#42", rec.ID, "--json")
			if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec.Answer != "20 workers" || rec.Value != "20" {
				t.Errorf("bot wait --json: exit %d, %s %s; want the answer that fits, with value 20", code, out, errs)
			}
		})
	}
}
