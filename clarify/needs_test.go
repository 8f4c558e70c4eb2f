package clarify

import (
	"testing"
)

var ana = Actor{Login: "ana", Permission: "write"}

// refusalCodes lists the codes of the refusals among results.
func refusalCodes(results []Result) []ErrorCode {
	var codes []ErrorCode
	for _, r := range results {
		for _, e := range r.Effects {
			if e.Kind == EffectReply && e.Reply.Kind == ReplyRefusal {
				codes = append(codes, e.Reply.Code)
			}
		}
	}
	return codes
}

// TestAQuestionThatNeedsTwoIsAnsweredWhenTwoAgree plays `Needs: 2` to a role of three:
// one answer leaves it open, a bot's and an outsider's do not count, a person's second
// reply replaces their first, and two that disagree leave it open until they agree.
func TestAQuestionThatNeedsTwoIsAnsweredWhenTwoAgree(t *testing.T) {
	p := DefaultPolicy()
	p.AnswerFrom = AnswerTargets
	p.Roles = map[string][]string{"release": {"maria", "ana", "ben"}}
	ask := step{agent, "/clarify release Freeze the release for the migration?\nExpect: yes/no\nNeeds: 2", ""}
	cases := map[string]struct {
		steps  []step
		status Status
	}{
		"oneAnswer":            {[]step{ask, {maria, "Yes.", ""}}, Pending},
		"twoAgree":             {[]step{ask, {maria, "Yes.", ""}, {ana, "yes, freeze it", ""}}, Answered},
		"aBotAndAnOutsider":    {[]step{ask, {maria, "Yes.", ""}, {otherBot, "/respond CLR-42-001 yes", ""}, {stranger, "yes", ""}}, Pending},
		"theSamePersonTwice":   {[]step{ask, {maria, "Yes.", ""}, {maria, "Yes, really.", ""}}, Pending},
		"twoDisagree":          {[]step{ask, {maria, "Yes.", ""}, {ana, "No.", ""}}, Pending},
		"aChangeOfMindAgrees":  {[]step{ask, {maria, "Yes.", ""}, {ana, "No.", ""}, {ana, "/respond CLR-42-001 yes, fine", ""}}, Answered},
		"aReplyThatDoesNotFit": {[]step{ask, {maria, "Yes.", ""}, {ana, "maybe", ""}}, Pending},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, _ := play(p, tc.steps...)
			c, _ := l.Find("CLR-42-001")
			if c.Status != tc.status {
				t.Fatalf("%s; want %s\n%+v", c.Status, tc.status, c.Thread)
			}
			if got := Outcome(c) == OutcomeAnswered; got != (tc.status == Answered) {
				t.Errorf("outcome %q with status %s", Outcome(c), c.Status)
			}
		})
	}
}

// TestAskingForMorePeopleThanTheTargetNamesIsRefused: a role of three cannot give four
// answers, nor one person two; a team's size is GitHub's to know, and passes.
func TestAskingForMorePeopleThanTheTargetNamesIsRefused(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"release": {"maria", "ana", "ben"}, "arch": {"bob", "@octo/arch"}}
	cases := map[string]struct {
		ask  string
		code ErrorCode // "" when taken
	}{
		"aRoleOfThreeNeedsThree": {"/clarify release Freeze?\nNeeds: 3", ""},
		"aRoleOfThreeNeedsFour":  {"/clarify release Freeze?\nNeeds: 4", CodeNeedsTooMany},
		"aPersonNeedsTwo":        {"/clarify @maria Freeze?\nNeeds: 2", CodeNeedsTooMany},
		"aTeamNeedsFive":         {"/clarify @octo/arch Freeze?\nNeeds: 5", ""},
		"aRoleWithATeam":         {"/clarify arch Freeze?\nNeeds: 5", ""},
		"notANumber":             {"/clarify release Freeze?\nNeeds: two", CodeBadNeeds},
		"zero":                   {"/clarify release Freeze?\nNeeds: 0", CodeBadNeeds},
		"pastTheMost":            {"/clarify release Freeze?\nNeeds: 11", CodeBadNeeds},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, results := play(p, step{agent, tc.ask, ""})
			codes := refusalCodes(results)
			switch {
			case tc.code == "" && (len(l.Clarifications) != 1 || len(codes) != 0):
				t.Fatalf("refused %v; want it asked", codes)
			case tc.code != "" && (len(l.Clarifications) != 0 || len(codes) != 1 || codes[0] != tc.code):
				t.Fatalf("asked %d, refused %v; want refused %s", len(l.Clarifications), codes, tc.code)
			}
		})
	}
}
