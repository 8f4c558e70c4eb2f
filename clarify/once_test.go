package clarify

import (
	"fmt"
	"testing"
)

func TestAnswerWakesForANewAnswerer(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	answer := step{maria, "Per key.", ""}
	escalate := step{maria, "/clarify escalate CLR-42-001 not sure", ""}
	followup := step{agent, "/clarify followup CLR-42-001 Which header?", ""}
	cases := map[string]struct {
		before, after []step
		want          bool
	}{
		"theFirstAnswerOfARound":                 {[]step{ask}, []step{answer}, true},
		"askedAndAnsweredInOneRun":               {nil, []step{ask, answer}, true},
		"answeredAgainAfterAnEscalation":         {[]step{ask, answer}, []step{escalate, answer}, false},
		"anotherAnswersAfterAnEscalation":        {[]step{ask, answer, escalate}, []step{{admin, "CLR-42-001: per IP", ""}}, true},
		"aThirdAnswererWakesNobody":              {[]step{ask, answer, escalate, {admin, "CLR-42-001: per IP", ""}}, []step{{Actor{Login: "lee", Permission: "write"}, "/respond CLR-42-001 per user", ""}}, false},
		"answeredEscalatedAndAnsweredInOneRun":   {[]step{ask}, []step{answer, escalate, answer}, true},
		"theFirstAnswerOfTheNextRound":           {[]step{ask, answer, escalate, answer}, []step{followup, answer}, true},
		"escalatedWithoutAnAnswerWakesNobody":    {[]step{ask}, []step{escalate}, false},
		"stillAnsweredWithNothingNewWakesNobody": {[]step{ask, answer}, nil, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before, _ := play(p, tc.before...)
			after, _ := play(p, append(append([]step(nil), tc.before...), tc.after...)...)
			old, existed := before.Find("CLR-42-001")
			now, _ := after.Find("CLR-42-001")
			if got := AnswerWakes(old, existed, now); got != tc.want {
				t.Errorf("AnswerWakes = %v, want %v (before %s round %d, after %s round %d)", got, tc.want, old.Status, old.Round, now.Status, now.Round)
			}
		})
	}
}

// TestTheOtherSidesEscalationIsHeard: the target escalates and answers; the asker then
// disputes the answer. That is news for the maintainers, who are called a second time,
// and the maintainer's answer to it wakes the asker a second time.
func TestTheOtherSidesEscalationIsHeard(t *testing.T) {
	p := DefaultPolicy()
	steps := []step{
		{agent, "/clarify @maria Per key or per IP?", ""},
		{maria, "/clarify escalate CLR-42-001 not sure", ""},
		{maria, "Per key.", ""},
		{agent, "/clarify escalate CLR-42-001 That answer contradicts the security review", ""},
		{admin, "/respond CLR-42-001 Per IP: the security review stands.", ""},
	}
	l, rs := play(p, steps...)
	if got := escalations(rs); got != 2 {
		t.Errorf("the maintainers were called %d times, want 2 (the target's escalation, then the asker's)", got)
	}
	if got := wakeUps(p, steps); got != 2 {
		t.Errorf("the asker was woken %d times, want 2 (maria's answer, then root's)", got)
	}
	if c := l.Clarifications[0]; c.Status != Answered || LastAnswer(c) != "Per IP: the security review stands." {
		t.Errorf("status %s, last answer %q", c.Status, LastAnswer(c))
	}
}

// TestATargetLoopCallsAndWakesAtMostTwice: the target escalates and answers four times
// over in one round, each escalation with a new reason: the maintainers are called twice,
// the third and fourth escalations get a called-twice reply, and the asker is woken once
// (the same person answering again is no news).
func TestATargetLoopCallsAndWakesAtMostTwice(t *testing.T) {
	p := DefaultPolicy()
	steps := []step{{agent, "/clarify @maria Per key or per IP?", ""}}
	for i := range 4 {
		steps = append(steps,
			step{maria, fmt.Sprintf("/clarify escalate CLR-42-001 doubt number %d", i), ""},
			step{maria, fmt.Sprintf("/respond CLR-42-001 Per key, take %d.", i), ""})
	}
	_, rs := play(p, steps...)
	calls, told := escalations(rs), 0
	for _, r := range rs {
		for _, e := range r.Effects {
			if e.Kind == EffectReply && e.Reply.Code == CodeCalledTwice {
				told++
			}
		}
	}
	wakes := wakeUps(p, steps)
	t.Logf("target loop of 4: %d calls, %d called-twice replies, %d wake-ups", calls, told, wakes)
	if calls != 2 || told != 2 || wakes != 1 {
		t.Errorf("calls %d, called-twice replies %d, wake-ups %d; want 2, 2, 1", calls, told, wakes)
	}
}

// escalations counts the calls of the maintainers among the results.
func escalations(rs []Result) int {
	n := 0
	for _, r := range rs {
		for _, e := range r.Effects {
			if e.Kind == EffectEscalate {
				n++
			}
		}
	}
	return n
}

// wakeUps counts the wake-ups of runs that apply one step each.
func wakeUps(p Policy, steps []step) int {
	n := 0
	for i := 1; i <= len(steps); i++ {
		before, _ := play(p, steps[:i-1]...)
		after, _ := play(p, steps[:i]...)
		old, existed := before.Find("CLR-42-001")
		now, _ := after.Find("CLR-42-001")
		if AnswerWakes(old, existed, now) {
			n++
		}
	}
	return n
}

// TestWakeKeyIsTheSameForARepeatAndNewForAChange: the key a wake-up carries is the same
// when the same comments are applied again to the ledger from before them (a body put back
// and taken again), and differs for each change of state that wakes the asker anew.
func TestWakeKeyIsTheSameForARepeatAndNewForAChange(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	answer := step{maria, "Per key.", ""}
	escalate := step{agent, "/clarify escalate CLR-42-001 That contradicts the security review", ""}
	admins := step{admin, "/respond CLR-42-001 Per IP.", ""}
	followup := step{agent, "/clarify followup CLR-42-001 Which header?", ""}
	resolve := step{agent, "/clarify resolve CLR-42-001 Per IP, header X-Key.", ""}
	key := func(steps ...step) string {
		l, _ := play(p, steps...)
		c, _ := l.Find("CLR-42-001")
		return WakeKey(c)
	}
	first := key(ask, answer)
	if again := key(ask, answer); again != first {
		t.Errorf("the same answer applied again has key %q, was %q", again, first)
	}
	seen := map[string]string{first: "maria's answer"}
	for name, steps := range map[string][]step{
		"the maintainer's answer after an escalation": {ask, answer, escalate, admins},
		"the answer of the next round":                {ask, answer, followup, answer},
		"the resolution":                              {ask, answer, resolve},
	} {
		k := key(steps...)
		if other, ok := seen[k]; ok {
			t.Errorf("%s has key %q, as %s has", name, k, other)
		}
		seen[k] = name
	}
}
