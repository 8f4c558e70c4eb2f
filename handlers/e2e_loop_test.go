package handlers_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/wire"
)

// The person a clarification waits on (here the reporter, who may only read)
// escalates it and then answers it, four times over: each loop is two comments of theirs.
// A maintainer expects to be called at most twice per round (each escalation here gives a
// new reason), and the agent woken once per round by the same person's answers; a new round
// may call and wake again.

// loopConfig mentions maria and the maintainers' team on escalation and wakes agents.
const loopConfig = "notify:\n  dispatch: true\nescalation:\n  mention: [maria, \"@octo/maintainers\"]\n"

// escalateAndAnswer has rex escalate CLR-42-001 and then answer it, n times.
func escalateAndAnswer(w *driver, n int) {
	for i := range n {
		w.comment("rex", fmt.Sprintf("/clarify escalate CLR-42-001 I am not sure (%d)", i+1))
		w.comment("rex", fmt.Sprintf("Firefox, I think (%d).", i+1))
	}
}

// loopCounts is how many escalation comments @mention maria, and how many
// clarify-answered wake-ups were sent.
func loopCounts(w *driver) (mentions, wakes int) {
	mentions = w.botComments("@maria")
	for _, d := range w.h.Fake.Dispatches(repo) {
		if d.EventType == wire.WakeAnswered {
			wakes++
		}
	}
	return mentions, wakes
}

func loopWorld(t *testing.T) *driver {
	w := &driver{t: t, h: newHarness(t)}
	w.h.Fake.AddUser("rex", "User")
	w.h.Fake.SetPermission(repo, "rex", "read")
	w.h.Fake.SetFile(repo, ".github/clarify.yml", loopConfig)
	w.comment("coder-agent", "/clarify @rex Which browser showed the error?")
	return w
}

func TestATargetLoopingEscalateAndReplyCallsAndWakesAtMostTwicePerRound(t *testing.T) {
	w := loopWorld(t)
	escalateAndAnswer(w, 4)
	mentions, wakes := loopCounts(w)
	t.Logf("after four loops of escalate and reply in one round: %d escalation comments mentioning the maintainers, %d clarify-answered wake-ups", mentions, wakes)
	if mentions != 2 || wakes != 1 || w.botComments("called-twice") != 2 {
		t.Errorf("after four loops: %d escalations mentioning the maintainers, %d wake-ups, %d called-twice replies; want 2, 1, 2:\n%s",
			mentions, wakes, w.botComments("called-twice"), w.h.Fake.Transcript(repo, 42))
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
	if mentions, wakes := loopCounts(w); mentions != 3 || wakes != 2 {
		t.Errorf("after a second round with two loops: %d escalations mentioning the maintainers, %d wake-ups; want 3 and 2:\n%s",
			mentions, wakes, w.h.Fake.Transcript(repo, 42))
	}
}

// TestTheAskerDisputingAnAnswerIsHeard: the target escalates and answers; the agent that
// asked disputes the answer, and a maintainer answers the dispute. The dispute @mentions
// the maintainers (a second call in the round), and the maintainer's answer wakes the agent
// (a second wake-up): neither is swallowed by the target's own escalation and answer.
func TestTheAskerDisputingAnAnswerIsHeard(t *testing.T) {
	w := loopWorld(t)
	escalateAndAnswer(w, 1)
	w.comment("coder-agent", "/clarify escalate CLR-42-001 That answer contradicts the security review")
	w.comment("maria", "/respond CLR-42-001 Chrome: the security review stands.")
	mentions, wakes := loopCounts(w)
	if mentions != 2 || wakes != 2 {
		t.Errorf("%d escalations mentioning the maintainers, %d wake-ups; want 2 and 2:\n%s", mentions, wakes, w.h.Fake.Transcript(repo, 42))
	}
	sent := w.h.Fake.Dispatches(repo)
	var p wire.WakePayload
	if err := json.Unmarshal(sent[len(sent)-1].ClientPayload, &p); err != nil || p.Answer != "Chrome: the security review stands." {
		t.Errorf("the last wake-up carries %+v (%v), want the maintainer's answer", p, err)
	}
	w.replayAll()
	if m, wk := loopCounts(w); m != mentions || wk != wakes {
		t.Errorf("redelivering everything called or woke again: %d mentions, %d wake-ups", m, wk)
	}
}
