package clarify

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"
)

// tickStart is when the clarifications of the tick tests were asked; their SLA runs from it.
var tickStart = time.Date(2026, 3, 2, 14, 0, 0, 0, time.UTC)

// tickClarification is CLR-7-001 in status s, due at tickStart + 30m, with options a and b.
func tickClarification(s Status, fallback string) Clarification {
	return Clarification{
		ID: "CLR-7-001", Asker: Party{Login: "coder-agent", Role: "engineer"}, Target: Target{Kind: TargetRole, Name: "architect"},
		Blocking: true, Options: []Option{{"a", "Use UTC"}, {"b", "Use the user's timezone"}}, Fallback: fallback,
		Status: s, Round: 1, MaxRounds: 5, CreatedAt: tickStart, StaleAfter: tickStart.Add(DefaultSLA),
		Thread: []Entry{{Kind: KindQuestion, Round: 1, Author: "coder-agent", At: tickStart, Text: "Which timezone should reports use?"}},
	}
}

func tickLedger(cs ...Clarification) Ledger {
	l := NewLedger(7)
	l.Seq = len(cs)
	l.Clarifications = cs
	return l
}

// staleOn is c after its first timeout, waiting on side since due.
func staleOn(c Clarification, side string, due time.Time) Clarification {
	c.Thread = append(c.Thread, Entry{Kind: KindNote, Round: c.Round, At: c.StaleAfter, Text: "stale: waiting on " + side})
	c.Status = Stale
	c.StaleAfter = due
	return c
}

// tickCase is one clarification ticked at now and what the tick should leave behind.
type tickCase struct {
	c          Clarification
	now        time.Time
	wantStatus Status
	wantEffect Effect // zero: no effect
	wantAfter  time.Time
	wantEntry  string // the text the last thread entry starts with, "" when none was added
	wantAssume string // the decision logged as timeout_assumed, "" for none
}

func TestTick(t *testing.T) {
	p := DefaultPolicy()
	due := tickStart.Add(DefaultSLA)
	cases := dueTickCases(due)
	maps.Copy(cases, idleTickCases(due))
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := tickLedger(tc.c)
			r := Tick(in, p, tc.now)
			c := r.Ledger.Clarifications[0]
			if c.Status != tc.wantStatus {
				t.Errorf("status %s, want %s", c.Status, tc.wantStatus)
			}
			if !c.StaleAfter.Equal(tc.wantAfter) {
				t.Errorf("stale after %v, want %v", c.StaleAfter, tc.wantAfter)
			}
			checkTickEffect(t, r, tc.wantEffect)
			added := c.Thread[len(tc.c.Thread):]
			checkTickEntry(t, added, tc.wantEntry)
			checkTickAssumption(t, r.Ledger, c, added, tc)
			if !reflect.DeepEqual(in, tickLedger(tc.c)) {
				t.Error("Tick modified the ledger it was given")
			}
		})
	}
}

// dueTickCases are the ticks at or past a deadline: each moves the clarification on.
func dueTickCases(due time.Time) map[string]tickCase {
	return map[string]tickCase{
		"pendingAtDeadlineGoesStaleAndPingsTarget": {
			c: tickClarification(Pending, ""), now: due, wantStatus: Stale, wantAfter: due.Add(DefaultSLA),
			wantEffect: Effect{Kind: EffectPing, Key: "stale:CLR-7-001:1:target", ClarificationID: "CLR-7-001", Round: 1, Reason: SideTarget},
			wantEntry:  "stale: waiting on target",
		},
		"answeredPastDeadlineGoesStaleAndPingsAsker": {
			c: tickClarification(Answered, "a"), now: due.Add(time.Hour), wantStatus: Stale, wantAfter: due.Add(time.Hour + DefaultSLA),
			wantEffect: Effect{Kind: EffectPing, Key: "stale:CLR-7-001:1:asker", ClarificationID: "CLR-7-001", Round: 1, Reason: SideAsker,
				Mention: []string{"coder-agent"}},
			wantEntry: "stale: waiting on asker",
		},
		"staleTwiceWithFallbackResolvesAsAssumed": {
			c: staleOn(tickClarification(Pending, "a"), SideTarget, due.Add(DefaultSLA)), now: due.Add(DefaultSLA),
			wantStatus: Resolved, wantEffect: Effect{Kind: EffectTimeout, Key: "timeout:CLR-7-001", ClarificationID: "CLR-7-001"},
			wantEntry: "timeout_assumed: a) Use UTC", wantAssume: "a) Use UTC",
		},
		"staleTwiceWithFallbackInCapitalsResolvesAsAssumed": {
			c: staleOn(tickClarification(Pending, "B"), SideTarget, due.Add(DefaultSLA)), now: due.Add(DefaultSLA),
			wantStatus: Resolved, wantEffect: Effect{Kind: EffectTimeout, Key: "timeout:CLR-7-001", ClarificationID: "CLR-7-001"},
			wantEntry: "timeout_assumed: b) Use the user's timezone", wantAssume: "b) Use the user's timezone",
		},
		"staleTwiceWithoutFallbackEscalates": {
			c: staleOn(tickClarification(Pending, ""), SideTarget, due.Add(DefaultSLA)), now: due.Add(DefaultSLA),
			wantStatus: Escalated, wantEntry: "no answer after two SLA periods",
			wantEffect: Effect{Kind: EffectEscalate, Key: "escalate:CLR-7-001:1", ClarificationID: "CLR-7-001", Reason: "no answer after two SLA periods"},
		},
		"staleTwiceOnSilentAskerEscalatesRatherThanOverruleTheAnswer": {
			c: staleOn(tickClarification(Answered, "a"), SideAsker, due.Add(DefaultSLA)), now: due.Add(DefaultSLA),
			wantStatus: Escalated, wantEntry: "the asker did not act on the answer after two SLA periods",
			wantEffect: Effect{Kind: EffectEscalate, Key: "escalate:CLR-7-001:1:asker", ClarificationID: "CLR-7-001",
				Reason: "the asker did not act on the answer after two SLA periods"},
		},
		"staleWithoutNoteIsTakenAsWaitingOnTarget": {
			c: tickClarification(Stale, ""), now: due,
			wantStatus: Escalated, wantEntry: "no answer after two SLA periods",
			wantEffect: Effect{Kind: EffectEscalate, Key: "escalate:CLR-7-001:1", ClarificationID: "CLR-7-001", Reason: "no answer after two SLA periods"},
		},
	}
}

// idleTickCases are the ticks before a deadline or of a clarification that has none or is
// settled: each leaves it as it was.
func idleTickCases(due time.Time) map[string]tickCase {
	return map[string]tickCase{
		"pendingBeforeDeadlineIsNotDue": {
			c: tickClarification(Pending, ""), now: due.Add(-time.Second), wantStatus: Pending, wantAfter: due,
		},
		"staleBeforeSecondDeadlineIsNotDue": {
			c: staleOn(tickClarification(Pending, "a"), SideTarget, due.Add(DefaultSLA)), now: due.Add(DefaultSLA - time.Minute),
			wantStatus: Stale, wantAfter: due.Add(DefaultSLA),
		},
		"escalatedIsUntouched": {
			c: tickClarification(Escalated, "a"), now: due.Add(24 * time.Hour), wantStatus: Escalated, wantAfter: due,
		},
		"resolvedIsUntouched": {
			c: tickClarification(Resolved, "a"), now: due.Add(24 * time.Hour), wantStatus: Resolved, wantAfter: due,
		},
		"abandonedIsUntouched": {
			c: tickClarification(Abandoned, "a"), now: due.Add(24 * time.Hour), wantStatus: Abandoned, wantAfter: due,
		},
		"noDeadlineIsNeverDue": {
			c:          func() Clarification { c := tickClarification(Pending, ""); c.StaleAfter = time.Time{}; return c }(),
			now:        due.Add(24 * time.Hour),
			wantStatus: Pending,
		},
	}
}

// checkTickEffect asserts that the tick asked for want and nothing else, and said
// "nothing due" exactly when it asked for nothing.
func checkTickEffect(t *testing.T, r Result, want Effect) {
	t.Helper()
	var got Effect
	if len(r.Effects) > 1 {
		t.Fatalf("effects %+v, want at most one", r.Effects)
	}
	if len(r.Effects) == 1 {
		got = r.Effects[0]
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("effect %+v, want %+v", got, want)
	}
	if (r.Ignored == "nothing due") != reflect.DeepEqual(want, Effect{}) {
		t.Errorf("ignored %q with effects %+v", r.Ignored, r.Effects)
	}
}

// checkTickEntry asserts that the thread gained one entry by the app starting with want,
// or nothing when want is "".
func checkTickEntry(t *testing.T, added []Entry, want string) {
	t.Helper()
	switch {
	case want == "" && len(added) > 0:
		t.Errorf("thread gained %+v, want nothing", added)
	case want != "" && (len(added) != 1 || !strings.HasPrefix(added[0].Text, want) || added[0].Author != "" || added[0].Round != 1):
		t.Errorf("thread gained %+v, want one entry by the app starting %q", added, want)
	}
}

// checkTickAssumption asserts that a timeout logged tc.wantAssume as the asker's assumption
// and resolved the clarification with it, and that no other tick logged any.
func checkTickAssumption(t *testing.T, l Ledger, c Clarification, added []Entry, tc tickCase) {
	t.Helper()
	switch {
	case tc.wantAssume == "" && len(l.Assumptions) > 0:
		t.Errorf("assumptions %+v, want none", l.Assumptions)
	case tc.wantAssume != "":
		want := []Assumption{{Decision: tc.wantAssume, Author: "coder-agent", At: tc.now, Clarification: "CLR-7-001", Source: "timeout_assumed"}}
		if !reflect.DeepEqual(l.Assumptions, want) {
			t.Errorf("assumptions %+v, want %+v", l.Assumptions, want)
		}
		if c.Resolution != tc.wantAssume || !c.ResolvedAt.Equal(tc.now) || added[0].Kind != KindResolution {
			t.Errorf("resolution %q at %v (%s), want %q at %v", c.Resolution, c.ResolvedAt, added[0].Kind, tc.wantAssume, tc.now)
		}
	}
}

func TestStaleNoteRecordsWhenItWentStale(t *testing.T) {
	due := tickStart.Add(DefaultSLA)
	r := Tick(tickLedger(tickClarification(Pending, "")), DefaultPolicy(), due.Add(10*time.Minute))
	c := r.Ledger.Clarifications[0]
	note := c.Thread[len(c.Thread)-1]
	if note.Kind != KindNote || !note.At.Equal(due) {
		t.Errorf("note %+v, want a note at the deadline %v", note, due)
	}
	if WaitingOn(c) != SideTarget {
		t.Errorf("waiting on %q, want target", WaitingOn(c))
	}
}

func TestTickTwiceAtSameTimeChangesNothing(t *testing.T) {
	p := DefaultPolicy()
	due := tickStart.Add(DefaultSLA)
	second := func(c Clarification) Clarification { c.ID = "CLR-7-002"; return c }
	cases := map[string]struct {
		ledger Ledger
		now    time.Time
	}{
		"firstTimeout": {tickLedger(tickClarification(Pending, "a"), second(tickClarification(Answered, ""))), due},
		"secondTimeoutWithFallback": {tickLedger(staleOn(tickClarification(Pending, "a"), SideTarget, due.Add(DefaultSLA))),
			due.Add(DefaultSLA)},
		"secondTimeoutWithoutFallback": {tickLedger(staleOn(tickClarification(Pending, ""), SideTarget, due.Add(DefaultSLA))),
			due.Add(DefaultSLA)},
		"zeroSLAFallsBackToTheDefault": {tickLedger(tickClarification(Pending, "a")), due},
		"nothingDue":                   {tickLedger(tickClarification(Pending, "a")), tickStart},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pol := p
			if name == "zeroSLAFallsBackToTheDefault" {
				pol.SLA = 0
			}
			first := Tick(tc.ledger, pol, tc.now)
			again := Tick(first.Ledger, pol, tc.now)
			if len(again.Effects) != 0 || again.Ignored != "nothing due" {
				t.Errorf("second tick: effects %+v, ignored %q", again.Effects, again.Ignored)
			}
			if !reflect.DeepEqual(again.Ledger, first.Ledger) {
				t.Errorf("second tick changed the ledger:\n%+v\nthen\n%+v", first.Ledger, again.Ledger)
			}
			if replay := Tick(tc.ledger, pol, tc.now); !reflect.DeepEqual(replay, first) {
				t.Error("Tick is not deterministic")
			}
		})
	}
}

func TestTickAppliesToEveryClarificationInOrder(t *testing.T) {
	due := tickStart.Add(DefaultSLA)
	b := tickClarification(Answered, "")
	b.ID = "CLR-7-002"
	c := staleOn(tickClarification(Pending, ""), SideTarget, due)
	c.ID = "CLR-7-003"
	r := Tick(tickLedger(tickClarification(Pending, ""), b, c), DefaultPolicy(), due)
	var keys []string
	for _, e := range r.Effects {
		keys = append(keys, e.Key)
	}
	want := []string{"stale:CLR-7-001:1:target", "stale:CLR-7-002:1:asker", "escalate:CLR-7-003:1"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("effect keys %v, want %v", keys, want)
	}
}

// TestSLAThroughApply runs the whole clock: an ask, its first timeout, an answer that brings
// it back, the asker's silence, and the fallback taken only while the target is silent.
func TestSLAThroughApply(t *testing.T) {
	p := DefaultPolicy()
	asker := Actor{Login: "coder-agent", Bot: true, Permission: "read"}
	target := Actor{Login: "maria", Permission: "write"}
	ask := "/clarify @maria Which timezone should reports use?\nOptions:\na) UTC\nb) Local\nFallback: a"
	r := Apply(NewLedger(7), Event{Kind: EventComment, CommentID: 1, Actor: asker, Body: ask, At: tickStart}, p, tickStart)
	if r.Ignored != "" {
		t.Fatalf("ask not taken: %s", r.Ignored)
	}
	l := r.Ledger
	if due := l.Clarifications[0].StaleAfter; !due.Equal(tickStart.Add(p.SLA)) {
		t.Fatalf("deadline %v, want %v", due, tickStart.Add(p.SLA))
	}
	l = Tick(l, p, tickStart.Add(p.SLA)).Ledger
	if WaitingOn(l.Clarifications[0]) != SideTarget || l.Clarifications[0].Status != Stale {
		t.Fatalf("after one SLA: %s waiting on %s", l.Clarifications[0].Status, WaitingOn(l.Clarifications[0]))
	}
	at := tickStart.Add(p.SLA + time.Minute)
	l = Apply(l, Event{Kind: EventComment, CommentID: 2, Actor: target, Body: "Local time, please.", At: at}, p, at).Ledger
	if l.Clarifications[0].Status != Answered {
		t.Fatalf("a stale clarification was not answered: %s", l.Clarifications[0].Status)
	}
	l = Tick(l, p, at.Add(p.SLA)).Ledger
	if WaitingOn(l.Clarifications[0]) != SideAsker {
		t.Fatalf("after the answer went unread: waiting on %s", WaitingOn(l.Clarifications[0]))
	}
	r = Tick(l, p, at.Add(2*p.SLA))
	c := r.Ledger.Clarifications[0]
	if c.Status != Escalated || len(r.Ledger.Assumptions) != 0 {
		t.Errorf("silent asker: %s with assumptions %+v, want escalated and the answer not overruled", c.Status, r.Ledger.Assumptions)
	}
	if !c.StaleAfter.IsZero() {
		t.Error("an escalated clarification still has a deadline")
	}
}

func TestWaitingOn(t *testing.T) {
	due := tickStart.Add(DefaultSLA)
	cases := map[string]struct {
		c    Clarification
		want string
	}{
		"pendingWaitsOnTarget":            {tickClarification(Pending, ""), SideTarget},
		"answeredWaitsOnAsker":            {tickClarification(Answered, ""), SideAsker},
		"staleAfterAnswerWaitsOnAsker":    {staleOn(tickClarification(Answered, ""), SideAsker, due), SideAsker},
		"staleAfterQuestionWaitsOnTarget": {staleOn(tickClarification(Pending, ""), SideTarget, due), SideTarget},
		"escalatedWaitsOnMaintainers":     {tickClarification(Escalated, ""), SideMaintainers},
		"resolvedWaitsOnNobody":           {tickClarification(Resolved, ""), ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := WaitingOn(tc.c); got != tc.want {
				t.Errorf("WaitingOn = %q, want %q", got, tc.want)
			}
		})
	}
}
