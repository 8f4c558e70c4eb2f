package clarify

import "testing"

func TestAnswerWakesOnceARound(t *testing.T) {
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
