package clarify

import (
	"testing"
	"time"
)

// TestAResolutionCarriesTheValueOfItsWords: a resolve is read by the question's Expect as
// an answer is; words that do not fit still settle it: the asker's keep the answer's
// value, anyone else's have none.
func TestAResolutionCarriesTheValueOfItsWords(t *testing.T) {
	cases := map[string]struct {
		by             Actor
		resolve, value string
	}{
		"theAnswerTaken":                {agent, "/clarify resolve CLR-42-001", "20"},
		"theAnswerTakenWithoutTheID":    {agent, "/clarify resolve", "20"},
		"wordsThatFit":                  {agent, "/clarify resolve CLR-42-001 Going with 24 workers after all.", "24"},
		"theAskersWordsThatDoNotFit":    {agent, "/clarify resolve CLR-42-001 As maria says.", "20"},
		"theAskersWordsOutOfTheRange":   {agent, "/clarify resolve CLR-42-001 500 workers.", "20"},
		"aMaintainersWordsThatFit":      {admin, "/clarify resolve CLR-42-001 8 workers until the migration.", "8"},
		"aMaintainersWordsThatDoNotFit": {admin, "/clarify resolve CLR-42-001 Hold until the migration.", ""},
		"aMaintainerTakingTheAnswer":    {admin, "/clarify resolve CLR-42-001", "20"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, _ := play(DefaultPolicy(),
				step{agent, "/clarify @maria How many workers?\nExpect: number 1..100", ""},
				step{maria, "20 workers", ""},
				step{tc.by, tc.resolve, ""})
			c := l.Clarifications[0]
			if c.Status != Resolved {
				t.Fatalf("status %s, want resolved whatever the words", c.Status)
			}
			if got := AskRecordOf(42, c).Value; string(got) != tc.value {
				t.Errorf("the record's value %q, want %q (decision %q)", got, tc.value, c.Resolution)
			}
		})
	}
}

// TestAFallbackTakenOnTimeoutCarriesItsValue: the fallback option is the value of an
// `Expect: option` question; for another kind its text is read as an answer would be.
func TestAFallbackTakenOnTimeoutCarriesItsValue(t *testing.T) {
	cases := map[string]struct {
		expect, options, value string
	}{
		"option":              {"option", "a) per API key\nb) per client IP", `{"key":"b","text":"per client IP"}`},
		"number":              {"number 1..100", "a) 8 workers\nb) 4 workers", "4"},
		"yesNo":               {"yes/no", "a) yes, ship it\nb) no, wait for the audit", "false"},
		"aTextThatDoesNotFit": {"number", "a) 8 workers\nb) as many as there are cores", ""},
		"text":                {"text", "a) 8 workers\nb) 4 workers", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := DefaultPolicy()
			l, _ := play(p, step{agent, "/clarify @maria Which one?\nOptions:\n" + tc.options + "\nFallback: b\nExpect: " + tc.expect, ""})
			l = Tick(l, p, t0.Add(p.SLA)).Ledger
			l = Tick(l, p, t0.Add(2*p.SLA+time.Minute)).Ledger
			c := l.Clarifications[0]
			if c.Status != Resolved || Outcome(c) != OutcomeTimeoutAssumed {
				t.Fatalf("after two SLAs: %s (%s), want resolved on its fallback", c.Status, Outcome(c))
			}
			if got := LastValue(c); string(got) != tc.value {
				t.Errorf("value %q, want %q", got, tc.value)
			}
		})
	}
}

// TestADecisionIsOfferedWithItsValueToTheSameKindOfQuestion: the value goes with an offer
// only to a question that expects the same kind of answer and takes that value.
func TestADecisionIsOfferedWithItsValueToTheSameKindOfQuestion(t *testing.T) {
	opts := []Option{{Key: "a", Text: "per client IP"}, {Key: "b", Text: "per API key"}}
	cases := map[string]struct {
		d      Decision
		expect string
		opts   []Option
		want   string
	}{
		"sameNumber":          {Decision{Expect: "number 1..100", Value: "20"}, "number 1..100", nil, "20"},
		"aRangeItFits":        {Decision{Expect: "number 1..100", Value: "20"}, "number 1..64", nil, "20"},
		"aRangeItDoesNotFit":  {Decision{Expect: "number 1..100", Value: "20"}, "number 1..10", nil, ""},
		"yesNo":               {Decision{Expect: "yes/no", Value: "false"}, "yes/no", nil, "false"},
		"date":                {Decision{Expect: "date", Value: `"2026-12-01"`}, "date", nil, `"2026-12-01"`},
		"anOptionByItsText":   {Decision{Expect: "option", Value: `{"key":"a","text":"per API key"}`}, "option", opts, `{"key":"b","text":"per API key"}`},
		"anOptionNotOffered":  {Decision{Expect: "option", Value: `{"key":"a","text":"per user"}`}, "option", opts, ""},
		"anotherKind":         {Decision{Expect: "number", Value: "1"}, "yes/no", nil, ""},
		"aQuestionOfText":     {Decision{Expect: "yes/no", Value: "true"}, "", nil, ""},
		"aDecisionWithout":    {Decision{Expect: "number"}, "number", nil, ""},
		"aDecisionOfOldTimes": {Decision{Value: "20"}, "number", nil, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := Clarification{Expect: tc.expect, Options: tc.opts}
			if got := tc.d.ValueFor(c); string(got) != tc.want {
				t.Errorf("ValueFor = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestARememberedDecisionKeepsItsValue: an agent's resolve in its own words remembers the
// person's answer, with the answer's value and what the question expected.
func TestARememberedDecisionKeepsItsValue(t *testing.T) {
	p := DefaultPolicy()
	before, _ := play(p, step{agent, "/clarify @maria Ship on Monday?\nExpect: yes/no", ""}, step{maria, "Yes, ship it.", ""})
	after := Apply(before, Event{Kind: EventComment, CommentID: 200, Actor: agent, Body: "/clarify resolve CLR-42-001 Shipping.",
		At: t0.Add(time.Hour)}, p, t0.Add(time.Hour)).Ledger
	who := func(login string) (Actor, error) {
		if login == maria.Login {
			return maria, nil
		}
		return agent, nil
	}
	got, err := SettledByPeople(before, after, p, who)
	if err != nil || len(got) != 1 {
		t.Fatalf("SettledByPeople = %+v, %v", got, err)
	}
	if d := got[0]; d.Decision != "Yes, ship it." || d.Expect != "yes/no" || d.Value != "true" {
		t.Errorf("remembered %+v, want maria's answer with its value true", d)
	}
}

// TestASupersedeKeepsWhatTheQuestionExpected: the new words are read by it.
func TestASupersedeKeepsWhatTheQuestionExpected(t *testing.T) {
	cases := map[string]struct {
		expect, was, words, want string
	}{
		"aNumber":           {"number 1..100", "20", "32 workers from now on", "32"},
		"wordsThatDoNotFit": {"number 1..100", "20", "as many as the database takes", ""},
		"anOption":          {"option", `{"key":"a","text":"per API key"}`, "per client IP", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := Memory{Decisions: []Decision{{ID: "CLR-1-001", Issue: 1, Decision: "old", Expect: tc.expect, Value: Value(tc.was)}}}
			if changed, problem := m.Supersede("CLR-1-001", Decision{Issue: 2, CommentID: 9, Decision: tc.words}); !changed || problem != "" {
				t.Fatalf("Supersede: %v, %q", changed, problem)
			}
			if d := m.Decisions[1]; d.Expect != tc.expect || string(d.Value) != tc.want {
				t.Errorf("the new decision: expect %q value %q, want %q %q", d.Expect, d.Value, tc.expect, tc.want)
			}
		})
	}
}

// TestAResolveWithTheValueOfferedAcceptsTheOffer: in whatever words.
func TestAResolveWithTheValueOfferedAcceptsTheOffer(t *testing.T) {
	cases := map[string]struct {
		resolve  string
		accepted int
	}{
		"theValueInOtherWords": {"/clarify resolve CLR-42-001 20, as before.", 1},
		"anotherValue":         {"/clarify resolve CLR-42-001 32", 0},
		"theDecisionsWords":    {"/clarify resolve CLR-42-001 20 workers, the database takes no more.", 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, _ := play(DefaultPolicy(), step{agent, "/clarify @maria How many workers?\nExpect: number 1..100", ""})
			l.Clarifications[0].Precedent = &Precedent{From: "CLR-7-001", Decision: "20 workers, the database takes no more.", Value: "20"}
			l = Apply(l, Event{Kind: EventComment, CommentID: 300, Actor: maria, Body: tc.resolve, At: t0.Add(time.Hour)}, DefaultPolicy(), t0.Add(time.Hour)).Ledger
			if got := Summarize(l).Precedents; got.Offered != 1 || got.Accepted != tc.accepted {
				t.Errorf("precedents %+v, want %d accepted", got, tc.accepted)
			}
		})
	}
}
