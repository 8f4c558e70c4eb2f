package clarify

import (
	"strings"
	"testing"
	"time"
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

// TestATallySaysWhoAgreesAndWhoDiffers: the most answers alike agree (of a tie, the value
// that got there first) and the rest differ; one dissent holds the round however many
// agree, and text answers never differ.
func TestATallySaysWhoAgreesAndWhoDiffers(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"release": {"maria", "ana", "ben", "bob"}}
	ben, bob := Actor{Login: "ben"}, Actor{Login: "bob"}
	yesNo := step{agent, "/clarify release Freeze?\nExpect: yes/no\nNeeds: 2", ""}
	text := step{agent, "/clarify release Freeze?\nNeeds: 2", ""}
	cases := map[string]struct {
		steps         []step
		agree, differ string
		answered      bool
	}{
		"twoAgreeOneDiffers": {[]step{yesNo, {maria, "yes", ""}, {ben, "no", ""}, {ana, "yes", ""}}, "maria ana", "ben", false},
		"allDiffer":          {[]step{yesNo, {maria, "yes", ""}, {ben, "no", ""}}, "maria", "ben", false},
		"aTie":               {[]step{yesNo, {ben, "no", ""}, {maria, "yes", ""}, {ana, "yes", ""}, {bob, "no", ""}}, "maria ana", "ben bob", false},
		"twoAgree":           {[]step{yesNo, {maria, "yes", ""}, {ana, "yes, freeze", ""}}, "maria ana", "", true},
		"textNeverDiffers":   {[]step{text, {maria, "Freeze.", ""}, {ben, "Ship it.", ""}}, "maria ben", "", true},
	}
	names := func(es []Entry) string {
		var out []string
		for _, e := range es {
			out = append(out, e.Author)
		}
		return strings.Join(out, " ")
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, _ := play(p, tc.steps...)
			c, _ := l.Find("CLR-42-001")
			tally := TallyOf(c)
			if names(tally.Agree) != tc.agree || names(tally.Differ) != tc.differ || tally.Answered() != tc.answered {
				t.Errorf("agree %q, differ %q, answered %v; want %q, %q, %v", names(tally.Agree), names(tally.Differ), tally.Answered(), tc.agree, tc.differ, tc.answered)
			}
		})
	}
}

// TestAnOfferStampedBeforeDoesNotSettleAQuestionThatNeedsTwo: a ledger that holds a due
// precedent for a question that needs two people (written before such offers stopped
// settling anything) is not settled from it.
func TestAnOfferStampedBeforeDoesNotSettleAQuestionThatNeedsTwo(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"release": {"maria", "ana"}}
	l, _ := play(p, step{agent, "/clarify release Freeze?\nTopic: Release freeze\nNeeds: 2", ""})
	l.Clarifications[0].Precedent = &Precedent{From: "CLR-7-001", Decision: "Freeze.", Settles: t0.Add(time.Hour)}
	l, effects := SettleFromPrecedents(l, t0.Add(2*time.Hour))
	if c := l.Clarifications[0]; c.Status != Pending || len(effects) != 0 {
		t.Fatalf("%s with %d effects, want pending: it needs two people", c.Status, len(effects))
	}
}
