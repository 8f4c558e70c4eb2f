package handlers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/wire"
)

// The person a clarification waits on (here the reporter, who may only read)
// escalates it and then answers it, four times over: each loop is two comments of theirs.
// A maintainer expects to be called once per round, and the agent woken once per round by
// an answer; a new round may call and wake again.

// loopConfig mentions maria and the maintainers' team on escalation and wakes agents.
const loopConfig = "notify:\n  dispatch: true\nescalation:\n  mention: [maria, \"@octo/maintainers\"]\n"

// escalateAndAnswer has rex escalate CLR-42-001 and then answer it, n times.
func escalateAndAnswer(w *world, n int) {
	for i := range n {
		w.comment("rex", fmt.Sprintf("/clarify escalate CLR-42-001 I am not sure (%d)", i+1))
		w.comment("rex", fmt.Sprintf("Firefox, I think (%d).", i+1))
	}
}

// loopCounts is how many escalation comments @mention maria, and how many
// clarify-answered wake-ups were sent.
func loopCounts(w *world) (mentions, wakes int) {
	mentions = w.botComments("@maria")
	for _, d := range w.h.Fake.Dispatches(repo) {
		if d.EventType == wire.WakeAnswered {
			wakes++
		}
	}
	return mentions, wakes
}

func loopWorld(t *testing.T) *world {
	w := &world{t: t, h: newHarness(t)}
	w.h.Fake.AddUser("rex", "User")
	w.h.Fake.SetPermission(repo, "rex", "read")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", loopConfig)
	w.comment("coder-agent", "/clarify @rex Which browser showed the error?")
	return w
}

func TestATargetLoopingEscalateAndReplyCallsAndWakesOncePerRound(t *testing.T) {
	w := loopWorld(t)
	escalateAndAnswer(w, 4)
	mentions, wakes := loopCounts(w)
	t.Logf("after four loops of escalate and reply in one round: %d escalation comments mentioning the maintainers, %d clarify-answered wake-ups", mentions, wakes)
	if mentions != 1 || wakes != 1 {
		t.Errorf("after four loops: %d escalations mentioning the maintainers and %d wake-ups, want 1 and 1:\n%s",
			mentions, wakes, w.h.Fake.Transcript(repo, 42))
	}
	if c, _ := w.ledger().Find("CLR-42-001"); c.Status != "answered" || strings.Count(fmt.Sprint(c.Thread), "escalation") != 4 {
		t.Errorf("the ledger does not keep every escalation and answer: %s %+v", c.Status, c.Thread)
	}
	w.replayAll()
}

// TestEachRoundStillCallsTheMaintainersAndWakesTheAgent is the guard: the first escalation
// of a round @mentions the maintainers, its first answer wakes the agent, and a new round
// (a follow-up) does both again.
func TestEachRoundStillCallsTheMaintainersAndWakesTheAgent(t *testing.T) {
	w := loopWorld(t)
	escalateAndAnswer(w, 1)
	if mentions, wakes := loopCounts(w); mentions != 1 || wakes != 1 || w.botComments("@octo/maintainers") != 1 {
		t.Fatalf("the first loop: %d escalations mentioning maria (%d the team), %d wake-ups; want 1 each",
			mentions, w.botComments("@octo/maintainers"), wakes)
	}
	w.comment("coder-agent", "/clarify followup CLR-42-001 Which version of Firefox?")
	escalateAndAnswer(w, 2)
	if mentions, wakes := loopCounts(w); mentions != 2 || wakes != 2 {
		t.Errorf("after a second round with two loops: %d escalations mentioning the maintainers, %d wake-ups; want 2 and 2:\n%s",
			mentions, wakes, w.h.Fake.Transcript(repo, 42))
	}
}
