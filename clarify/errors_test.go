package clarify

import (
	"slices"
	"testing"
)

func TestRefusalsCarryTheirCode(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	cases := map[string]struct {
		steps []step
		want  ErrorCode
	}{
		"bogus subcommand":         {[]step{{agent, "/clarify frobnicate CLR-42-001", ""}}, CodeBadCommand},
		"respond to nothing":       {[]step{{maria, "/respond per key", ""}}, CodeNotAwaiting},
		"unknown id":               {[]step{ask, {agent, "/clarify resolve CLR-42-009 x", ""}}, CodeUnknownID},
		"follow-up before answer":  {[]step{ask, {agent, "/clarify followup CLR-42-001 Which?", ""}}, CodeStillAwaiting},
		"follow-up by another":     {[]step{ask, {maria, "Per key.", ""}, {maria, "/clarify followup CLR-42-001 Which?", ""}}, CodeNotPermitted},
		"answer after resolve":     {[]step{ask, {agent, "/clarify resolve CLR-42-001 x", ""}, {maria, "/respond CLR-42-001 per key", ""}}, CodeNotAwaiting},
		"closed issue":             {[]step{{maria, "", EventClosed}, {agent, "/clarify @maria Why?", ""}}, CodeIssueClosed},
		"asking oneself":           {[]step{{maria, "/clarify @maria Why?", ""}}, CodeSelfAddressed},
		"abandon by the target":    {[]step{ask, {maria, "/clarify abandon CLR-42-001", ""}}, CodeNotPermitted},
		"abandon what is resolved": {[]step{ask, {agent, "/clarify resolve CLR-42-001 x", ""}, {agent, "/clarify abandon CLR-42-001", ""}}, CodeSettled},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, rs := play(p, tc.steps...)
			last := rs[len(rs)-1]
			var got []ErrorCode
			for _, e := range last.Effects {
				if e.Kind == EffectReply && e.Reply.Kind == ReplyRefusal {
					got = append(got, e.Reply.Code)
				}
			}
			if !slices.Equal(got, []ErrorCode{tc.want}) {
				t.Errorf("refusal codes %q, want [%s] (%+v)", got, tc.want, last)
			}
		})
	}
}

func TestEveryRefusalOfTheFuzzCorpusHasADocumentedCode(t *testing.T) {
	p := DefaultPolicy()
	for _, body := range []string{"/clarify", "/clarify @", "/clarify resolve", "/respond", "/clarify followup", "/clarify escalate CLR-1-1",
		"/clarify @maria", "/assume", "/clarify show CLR-42-404", "/clarify @@x y"} {
		for _, who := range []Actor{agent, maria, bob, admin} {
			_, rs := play(p, step{agent, "/clarify @maria Per key?", ""}, step{who, body, ""})
			for _, e := range rs[1].Effects {
				if e.Kind == EffectReply && e.Reply.Kind == ReplyRefusal && !slices.Contains(ErrorCodes, e.Reply.Code) {
					t.Errorf("%s typing %q: refusal with code %q, not one of ErrorCodes", who.Login, body, e.Reply.Code)
				}
			}
		}
	}
}

// TestARefusedAnswerSaysWhoMayAnswer: the refusal of an answer names who may give it, as
// the repository's answer_from has it, and tells an asker the question is their own.
func TestARefusedAnswerSaysWhoMayAnswer(t *testing.T) {
	targets := DefaultPolicy()
	targets.AnswerFrom = AnswerTargets
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	for name, tc := range map[string]struct {
		p    Policy
		who  Actor
		want string
	}{
		"a maintainer, answer_from: targets": {targets, admin, "CLR-42-001 is addressed to maria; only they can answer it (answer_from: targets)."},
		"the asker":                          {DefaultPolicy(), agent, "CLR-42-001 is your own question; its answer comes from maria."},
	} {
		t.Run(name, func(t *testing.T) {
			_, rs := play(tc.p, ask, step{tc.who, "/respond CLR-42-001 Per key.", ""})
			var got []string
			for _, e := range rs[1].Effects {
				if e.Kind == EffectReply && e.Reply.Kind == ReplyRefusal {
					got = append(got, e.Reply.Problem)
				}
			}
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("refusals %q, want %q", got, tc.want)
			}
		})
	}
}
