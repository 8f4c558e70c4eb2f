package action_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// TestACopyOfADispatchsMirrorIsNotItsCommandAgain: another workflow of the repository
// (it writes as github-actions[bot], as Clarify does) posts a verbatim copy of the mirror
// of an agent's dispatched follow-up, soon after and half an hour after. The copy is no
// second follow-up: the next run neither asks again nor escalates.
func TestACopyOfADispatchsMirrorIsNotItsCommandAgain(t *testing.T) {
	for name, gap := range map[string]time.Duration{"aMinuteLater": time.Minute, "halfAnHourLater": 30 * time.Minute} {
		t.Run(name, func(t *testing.T) {
			b := newBench(t)
			b.agentDispatch(map[string]any{"issue": 42, "action": "ask", "target": "@maria", "question": "Per API key or per client IP?"})
			b.comment("maria", "Per API key.")
			b.agentDispatch(map[string]any{"issue": 42, "action": "followup", "id": "CLR-42-001", "question": "100 or 1000 a minute?"})
			b.comment("maria", "1000.")
			var mirror string
			for _, c := range b.fake.Comments(repo, 42) {
				if c.User == fakegithub.ActionsBotLogin && strings.Contains(c.Body, "via `repository_dispatch`") && strings.Contains(c.Body, "followup") {
					mirror = c.Body
				}
			}
			if mirror == "" {
				t.Fatalf("no mirror of the follow-up:\n%s", b.fake.Transcript(repo, 42))
			}
			b.fake.Advance(gap)
			b.workflowComment(mirror)
			b.comment("drive-by", "Any news?")
			// Answered, waiting on the agent (stale once its half hour passed): the copy
			// neither asks again nor counts as the agent repeating itself.
			if c := b.clar("CLR-42-001"); c.Round != 2 || (c.Status != clarify.Answered && c.Status != clarify.Stale) {
				t.Fatalf("after the copy: %s in round %d; want answered in round 2\n%s", c.Status, c.Round, b.fake.Transcript(repo, 42))
			}
			if n := b.botComments("round 3/5"); n != 0 {
				t.Errorf("a third round was asked %d times", n)
			}
		})
	}
}
