package clarify

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// mentionPolicy has an architect role that lists a login twice in different cases, a team,
// and the asking agent itself; and a role too large to mention in full.
func mentionPolicy() Policy {
	p := DefaultPolicy()
	p.Roles = map[string][]string{
		"architect": {"arch", "@octo/arch", "ARCH", "coder-agent"},
		"engineer":  {"coder-agent"},
	}
	for i := 1; i <= 15; i++ {
		p.Roles["everyone"] = append(p.Roles["everyone"], fmt.Sprintf("user%d", i))
	}
	return p
}

func TestRoundsMentionWhomGitHubHasNotNotified(t *testing.T) {
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	answer := step{maria, "Per key.", ""}
	var everyone []string
	for i := 1; i <= maxMentions; i++ {
		everyone = append(everyone, fmt.Sprintf("user%d", i))
	}
	cases := map[string]struct {
		steps []step
		want  []string // the Mention of the last step's round effect
	}{
		"roundOneToALoginNamedInTheAskMentionsNobody": {[]step{ask}, nil},
		"roundOneToATeamNamedInTheAskMentionsNobody":  {[]step{{agent, "/clarify @octo/platform Which region?", ""}}, nil},
		"roundOneToARoleMentionsEachMemberOnceButNotTheAsker": {[]step{{agent, "/clarify architect Which store?", ""}},
			[]string{"arch", "octo/arch"}},
		"roleWrittenWithAtStillMentionsItsMembers": {[]step{{agent, "/clarify @Architect Which store?", ""}},
			[]string{"arch", "octo/arch"}},
		"membersTheAskMentionedAreNotMentionedAgain": {[]step{{agent, "/clarify architect Which store?\n\ncc @Arch", ""}},
			[]string{"octo/arch"}},
		"aTeamTheAskMentionedIsNotMentionedAgain": {[]step{{agent, "/clarify architect Which store? (@octo/arch)", ""}},
			[]string{"arch"}},
		"mentionsInCodeQuotesAndHiddenCommentsNotifyNobody": {[]step{{agent,
			"/clarify architect Which store? `@arch`\n> @octo/arch said so\n<!-- @arch -->\n```\n@arch\n```", ""}},
			[]string{"arch", "octo/arch"}},
		"anEMailAddressIsNoMention": {[]step{{agent, "/clarify architect Which store? Write to boss@arch for access.", ""}},
			[]string{"arch", "octo/arch"}},
		"peopleTheQuestionNamesAreNeverAddedToIt": {[]step{{agent, "/clarify architect Should @mallory or @arch decide?", ""}},
			[]string{"octo/arch"}},
		"aLargeRoleIsCapped": {[]step{{agent, "/clarify everyone Which store?", ""}}, everyone},
		"followUpRoundMentionsTheLoginTarget": {[]step{ask, answer, {agent, "/clarify followup CLR-42-001 Which limit?", ""}},
			[]string{"maria"}},
		"followUpThatNamesTheTargetMentionsNobody": {[]step{ask, answer, {agent, "/clarify followup CLR-42-001 @maria which limit?", ""}},
			nil},
		"followUpToARoleMentionsItsMembersAgain": {[]step{{agent, "/clarify architect Which store?", ""}, {Actor{Login: "arch", Permission: "read"}, "Postgres.", ""},
			{agent, "/clarify followup CLR-42-001 Which version?", ""}}, []string{"arch", "octo/arch"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, rs := play(mentionPolicy(), tc.steps...)
			last := rs[len(rs)-1]
			if len(last.Effects) != 1 || last.Effects[0].Kind != EffectPostRound {
				t.Fatalf("effects %+v (%s), want one round", last.Effects, last.Ignored)
			}
			if got := last.Effects[0].Mention; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("round mentions %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAMirroredAsksRoundMentionsItsTarget: a dispatch's mirror leaves the ask's target to
// the round (MirrorMentions), so the round mentions them; others the mirror named it leaves out.
func TestAMirroredAsksRoundMentionsItsTarget(t *testing.T) {
	ev := Event{Kind: EventComment, CommentID: 100, Actor: agent, Body: "/clarify @maria As @bob said: per key or per IP?",
		At: t0, Mirrored: true}
	r := Apply(NewLedger(42), ev, mentionPolicy(), t0)
	if len(r.Effects) != 1 || r.Effects[0].Kind != EffectPostRound {
		t.Fatalf("effects %+v (%s), want one round", r.Effects, r.Ignored)
	}
	if got := r.Effects[0].Mention; !reflect.DeepEqual(got, []string{"maria"}) {
		t.Errorf("the round of a mirrored ask mentions %q, want [maria]", got)
	}
}

func TestPingsMentionTheAwaitedSide(t *testing.T) {
	p := mentionPolicy()
	due := tickStart.Add(DefaultSLA)
	login := tickClarification(Pending, "")
	login.Target = Target{Kind: TargetLogin, Name: "maria"}
	cases := map[string]struct {
		c    Clarification
		want []string
	}{
		"targetRoleMembersButNotTheAsker":    {tickClarification(Pending, ""), []string{"arch", "octo/arch"}},
		"targetLoginEvenThoughTheAskNamedIt": {login, []string{"maria"}},
		"theAskerOnceTheAnswerWaitsForThem":  {tickClarification(Answered, ""), []string{"coder-agent"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := Tick(tickLedger(tc.c), p, due.Add(time.Minute))
			if len(r.Effects) != 1 || r.Effects[0].Kind != EffectPing {
				t.Fatalf("effects %+v, want one ping", r.Effects)
			}
			if got := r.Effects[0].Mention; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ping mentions %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMentionedIn(t *testing.T) {
	cases := map[string]struct {
		body string
		want []string
	}{
		"loginAtTheStartOfALine":         {"@alice please", []string{"alice"}},
		"loginAfterPunctuation":          {"(@alice), **@bob**", []string{"alice", "bob"}},
		"loginBeforeASentenceEnd":        {"ask @alice.", []string{"alice"}},
		"loginInAnyCaseIsLowerCased":     {"@Alice", []string{"alice"}},
		"teamHandle":                     {"cc @octo/arch_team", []string{"octo/arch_team"}},
		"orgWithoutATeamIsNobody":        {"see @octo/ for more", nil},
		"eMailAddressIsNobody":           {"mail a@b.example", nil},
		"invalidLoginIsNobody":           {"@-x @a--b", nil},
		"codeSpanQuoteAndFenceAreNobody": {"`@a` and ``@b``\n> @c\n```\n@d\n```\n    @e", nil},
		"unclosedBackticksAreText":       {"` @alice", []string{"alice"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := mentionedIn(tc.body)
			want := map[string]bool{}
			for _, h := range tc.want {
				want[h] = true
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("mentionedIn(%q) = %v, want %v", tc.body, got, want)
			}
		})
	}
}

func TestMirrorMentions(t *testing.T) {
	cases := map[string]struct {
		command, sender string
		want            []string
	}{
		"anAsksTargetIsLeftToTheRound":        {"/clarify @Maria Per key or per IP?", "coder-agent", nil},
		"aTeamTargetIsLeftToTheRound":         {"/clarify @octo/arch Per key? cc @bob", "coder-agent", []string{"bob"}},
		"othersNamedInAnAskAreMentioned":      {"/clarify @maria As @bob said: per key?", "coder-agent", []string{"bob"}},
		"theSenderIsNeverMentioned":           {"/clarify resolve CLR-1-001 per key, @Coder-Agent and @bob", "coder-agent", []string{"bob"}},
		"aResolveMentionsWhomItNames":         {"/clarify resolve CLR-1-001 per key @maria", "coder-agent", []string{"maria"}},
		"aRoleWrittenWithoutAtIsNoMention":    {"/clarify architect Per key?", "coder-agent", nil},
		"aMalformedAskMentionsWhomItNamesAll": {"/clarify @maria", "coder-agent", []string{"maria"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := MirrorMentions(tc.command, tc.sender); !slices.Equal(got, tc.want) {
				t.Errorf("MirrorMentions(%q, %q) = %q, want %q", tc.command, tc.sender, got, tc.want)
			}
		})
	}
}
