package clarify

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

var (
	agent    = Actor{Login: "coder-agent", Bot: true, Permission: "read"}
	maria    = Actor{Login: "maria", Permission: "write"}
	bob      = Actor{Login: "bob", Permission: "read"}
	admin    = Actor{Login: "root", Permission: "admin"}
	stranger = Actor{Login: "drive-by", Permission: "read"}
	otherBot = Actor{Login: "lint-bot", Bot: true, Permission: "read"}
	self     = Actor{Login: "clarify[bot]", Bot: true, Self: true}
)

// step is one comment (or issue event) in a table case.
type step struct {
	who  Actor
	body string
	kind EventKind // default EventComment
}

// play folds steps into a fresh ledger of issue 42, one minute apart, with ascending comment ids.
func play(p Policy, steps ...step) (Ledger, []Result) {
	l := NewLedger(42)
	var results []Result
	for i, s := range steps {
		ev := Event{Kind: s.kind, Actor: s.who, Body: s.body, At: t0.Add(time.Duration(i) * time.Minute)}
		if ev.Kind == "" {
			ev.Kind = EventComment
			ev.CommentID = int64(100 + i)
			ev.IssueClosed = l.Closed // as the payload would say
		}
		r := Apply(l, ev, p, ev.At)
		results = append(results, r)
		l = r.Ledger
	}
	return l, results
}

func TestTransitions(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria Per key or per IP?", ""}
	cases := map[string]struct {
		steps      []step
		wantStatus Status
		wantRound  int
		wantLast   EffectKind // kind of the last step's first effect, "" for none
		wantIgnore bool       // the last step moved nothing
	}{
		"askOpensPendingRoundOne":                {[]step{ask}, Pending, 1, EffectPostRound, false},
		"targetReplyAnswers":                     {[]step{ask, {maria, "Per key.", ""}}, Answered, 1, EffectReact, false},
		"writeAccessReplyNamingIDAnswers":        {[]step{ask, {admin, "CLR-42-001: per key", ""}}, Answered, 1, EffectReact, false},
		"writeAccessReplyNotAddressedIsNoAnswer": {[]step{ask, {admin, "Interesting question", ""}}, Pending, 1, "", true},
		"respondFromWriteAccessAnswersOldest":    {[]step{ask, {admin, "/respond per key", ""}}, Answered, 1, EffectReact, false},
		"driveByReplyIsIgnored":                  {[]step{ask, {stranger, "per IP", ""}}, Pending, 1, "", true},
		"driveByNamingIDIsIgnored":               {[]step{ask, {stranger, "CLR-42-001 per IP", ""}}, Pending, 1, "", true},
		"otherBotsPlainReplyIsIgnored":           {[]step{ask, {otherBot, "per key", ""}}, Pending, 1, "", true},
		"askersOwnRemarkIsNoAnswer":              {[]step{ask, {agent, "hmm", ""}}, Pending, 1, "", true},
		"appsOwnCommentIsNeverInput":             {[]step{ask, {self, "/respond per key", ""}}, Pending, 1, "", true},
		"followupOpensNextRound": {[]step{ask, {maria, "Per key.", ""},
			{agent, "/clarify followup CLR-42-001 Which limit?", ""}}, Pending, 2, EffectPostRound, false},
		"followupBeforeAnswerIsRefused": {[]step{ask,
			{agent, "/clarify followup CLR-42-001 Which limit?", ""}}, Pending, 1, EffectReply, true},
		"followupByOtherThanAskerIsRefused": {[]step{ask, {maria, "Per key.", ""},
			{maria, "/clarify followup CLR-42-001 Which limit?", ""}}, Answered, 1, EffectReply, true},
		// Settling commands get no reaction: the status table and the labels show them.
		"askerResolves":           {[]step{ask, {agent, "/clarify resolve CLR-42-001 per key", ""}}, Resolved, 1, "", false},
		"writeAccessResolves":     {[]step{ask, {admin, "/clarify resolve per key", ""}}, Resolved, 1, "", false},
		"strangerCannotResolve":   {[]step{ask, {stranger, "/clarify resolve CLR-42-001 per IP", ""}}, Pending, 1, "", true},
		"askerAbandons":           {[]step{ask, {agent, "/clarify abandon CLR-42-001", ""}}, Abandoned, 1, "", false},
		"targetCannotAbandon":     {[]step{ask, {maria, "/clarify abandon CLR-42-001", ""}}, Pending, 1, EffectReply, true},
		"closingAbandons":         {[]step{ask, {maria, "", EventClosed}}, Abandoned, 1, "", false},
		"reopeningRevivesNothing": {[]step{ask, {maria, "", EventClosed}, {maria, "", EventReopened}}, Abandoned, 1, "", false},
		"escalateMarksEscalated":  {[]step{ask, {agent, "/clarify escalate CLR-42-001 no answer", ""}}, Escalated, 1, EffectEscalate, false},
		"escalatedCanStillBeAnswered": {[]step{ask, {agent, "/clarify escalate CLR-42-001", ""},
			{maria, "per key", ""}}, Answered, 1, EffectReact, false},
		"resolvedCannotBeAnswered": {[]step{ask, {agent, "/clarify resolve CLR-42-001 x", ""},
			{maria, "/respond CLR-42-001 per key", ""}}, Resolved, 1, EffectReply, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, rs := play(p, tc.steps...)
			c, ok := l.Find("CLR-42-001")
			if !ok {
				t.Fatalf("no CLR-42-001 in %+v", l)
			}
			if c.Status != tc.wantStatus || c.Round != tc.wantRound {
				t.Errorf("status %s round %d, want %s round %d", c.Status, c.Round, tc.wantStatus, tc.wantRound)
			}
			last := rs[len(rs)-1]
			var got EffectKind
			if len(last.Effects) > 0 {
				got = last.Effects[0].Kind
			}
			if got != tc.wantLast {
				t.Errorf("last effect %q, want %q (%+v)", got, tc.wantLast, last.Effects)
			}
			if (last.Ignored != "") != tc.wantIgnore {
				t.Errorf("ignored = %q, want ignored %v", last.Ignored, tc.wantIgnore)
			}
		})
	}
}

func TestFollowupPastMaxRoundsEscalates(t *testing.T) {
	p := DefaultPolicy()
	steps := []step{{agent, "/clarify @maria Q1?", ""}}
	for r := 1; r <= p.MaxRoundsBlocking; r++ {
		steps = append(steps, step{maria, "answer", ""})
		steps = append(steps, step{agent, fmt.Sprintf("/clarify followup CLR-42-001 next question %d?", r), ""})
	}
	l, rs := play(p, steps...)
	c, _ := l.Find("CLR-42-001")
	if c.Status != Escalated || c.Round != p.MaxRoundsBlocking {
		t.Fatalf("status %s round %d, want escalated at round %d", c.Status, c.Round, p.MaxRoundsBlocking)
	}
	last := rs[len(rs)-1]
	if len(last.Effects) != 2 || last.Effects[0].Kind != EffectReply || last.Effects[1].Kind != EffectEscalate {
		t.Errorf("effects %+v, want a refusal and an escalation", last.Effects)
	}
	nonBlocking, _ := play(p, step{agent, "/clarify @maria --non-blocking Q?", ""})
	if nonBlocking.Clarifications[0].MaxRounds != 6 {
		t.Errorf("non-blocking max rounds %d, want 6", nonBlocking.Clarifications[0].MaxRounds)
	}
}

func TestSameCommentTwiceChangesNothing(t *testing.T) {
	p := DefaultPolicy()
	l, _ := play(p, step{agent, "/clarify @maria Q?", ""})
	ev := Event{Kind: EventComment, CommentID: 100, Actor: agent, Body: "/clarify @maria Q?", At: t0}
	r := Apply(l, ev, p, t0.Add(time.Hour))
	if len(r.Effects) != 0 || r.Ignored == "" || len(r.Ledger.Clarifications) != 1 {
		t.Errorf("applying comment 100 again: %+v", r)
	}
}

func TestApplyNeverWritesIntoItsInput(t *testing.T) {
	p := DefaultPolicy()
	l, _ := play(p, step{agent, "/clarify @maria Q?", ""})
	before := l.Clarifications[0].Thread[0].Text
	Apply(l, Event{Kind: EventComment, CommentID: 500, Actor: maria, Body: "answer", At: t0}, p, t0)
	if l.Clarifications[0].Status != Pending || len(l.Clarifications[0].Thread) != 1 || l.Clarifications[0].Thread[0].Text != before {
		t.Error("Apply modified the ledger it was given")
	}
}

func TestPlainReplyAnswersOldestAddressedToTheResponder(t *testing.T) {
	p := DefaultPolicy()
	l, _ := play(p,
		step{agent, "/clarify @bob Q for bob?", ""},
		step{agent, "/clarify @maria first for maria?", ""},
		step{agent, "/clarify @maria second for maria?", ""},
		step{maria, "my answer", ""},
	)
	got := map[string]Status{}
	for _, c := range l.Clarifications {
		got[c.ID] = c.Status
	}
	if got["CLR-42-001"] != Pending || got["CLR-42-002"] != Answered || got["CLR-42-003"] != Pending {
		t.Errorf("statuses %v: maria's reply should answer CLR-42-002 only", got)
	}
}

func TestRolesAndTeamsAreAddressed(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"architect": {"bob", "@octo/arch"}, "engineer": {"coder-agent"}}
	teamMember := Actor{Login: "carol", Permission: "read", Teams: map[string]bool{"octo/arch": true}}
	l, _ := play(p,
		step{agent, "/clarify @architect Which store?", ""},
		step{agent, "/clarify @octo/arch Which cache?", ""},
	)
	if c := l.Clarifications[0]; c.Target != (Target{TargetRole, "architect"}) || c.Asker.Role != "engineer" {
		t.Fatalf("role ask: %+v", c)
	}
	if c := l.Clarifications[1]; c.Target != (Target{TargetTeam, "octo/arch"}) {
		t.Fatalf("team ask: %+v", c)
	}
	r := Apply(l, Event{Kind: EventComment, CommentID: 900, Actor: bob, Body: "Postgres", At: t0}, p, t0)
	if c, _ := r.Ledger.Find("CLR-42-001"); c.Status != Answered {
		t.Errorf("bob, an architect, did not answer the architect's question: %s", c.Status)
	}
	r = Apply(r.Ledger, Event{Kind: EventComment, CommentID: 901, Actor: teamMember, Body: "Redis", At: t0}, p, t0)
	if c, _ := r.Ledger.Find("CLR-42-002"); c.Status != Answered {
		t.Errorf("a team member did not answer the team's question: %s", c.Status)
	}
}

func TestRefusals(t *testing.T) {
	p := DefaultPolicy()
	quota := DefaultPolicy()
	quota.MaxPerIssue = 1
	withReader := DefaultPolicy()
	withReader.Roles = map[string][]string{"reviewer": {"drive-by"}}
	cases := map[string]struct {
		policy  Policy
		steps   []step
		problem string
		try     string
	}{
		"unknownSubcommand":                     {p, []step{{agent, "/clarify frob", ""}}, "", "/clarify"},
		"respondWithNothingWaiting":             {p, []step{{maria, "/respond per key", ""}}, "no clarification", "/respond CLR-"},
		"roleMemberWithoutWriteAccessCannotAsk": {withReader, []step{{stranger, "/clarify @maria Q?", ""}}, "write access", ""},
		"askingYourself":                        {p, []step{{maria, "/clarify @maria Q?", ""}}, "cannot be addressed", "/clarify @"},
		"unknownID":                             {p, []step{{maria, "/clarify show CLR-42-009", ""}}, "no CLR-42-009", "/clarify"},
		"pastTheQuotaSuggestsAssume": {quota, []step{{agent, "/clarify @maria Q1?", ""}, {agent, "/clarify @maria Q2?", ""}},
			"the most this repository allows", "/assume"},
		"askInClosedIssue": {p, []step{{maria, "", EventClosed}, {agent, "/clarify @maria Q?", ""}}, "closed", "reopen"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l0, rs := play(tc.policy, tc.steps...)
			last := rs[len(rs)-1]
			if len(last.Effects) != 1 || last.Effects[0].Kind != EffectReply || last.Effects[0].Reply.Kind != ReplyRefusal {
				t.Fatalf("effects %+v, want one refusal", last.Effects)
			}
			rep := last.Effects[0].Reply
			if !strings.Contains(rep.Problem, tc.problem) || !strings.Contains(rep.Try, tc.try) || rep.Try == "" {
				t.Errorf("refusal %q / try %q, want it to mention %q and %q", rep.Problem, rep.Try, tc.problem, tc.try)
			}
			if rep.Quote == "" {
				t.Error("a refusal quotes the command line it refuses")
			}
			prev := NewLedger(42)
			if len(rs) > 1 {
				prev = rs[len(rs)-2].Ledger
			}
			if len(l0.Clarifications) != len(prev.Clarifications) {
				t.Error("a refused command changed the clarifications")
			}
		})
	}
}

func TestAssumeIsLogged(t *testing.T) {
	l, _ := play(DefaultPolicy(), step{agent, "/assume Export in UTC\nConfidence: high\nRisk: low", ""})
	if len(l.Assumptions) != 1 || l.Assumptions[0].Decision != "Export in UTC" || l.Assumptions[0].Confidence != "high" || l.Assumptions[0].Source != "assume" {
		t.Errorf("assumptions %+v", l.Assumptions)
	}
}

func TestEditedCommentsRunNoCommand(t *testing.T) {
	p := DefaultPolicy()
	base, _ := play(p, step{agent, "/clarify @maria Per key or per IP?", ""})
	cases := map[string]struct {
		who  Actor
		body string
	}{
		"editedRespond":           {maria, "/respond per key"},
		"editedAsk":               {agent, "/clarify @maria Which limit?"},
		"editedResolve":           {admin, "/clarify resolve CLR-42-001 per key"},
		"editedEscalate":          {agent, "/clarify escalate CLR-42-001"},
		"editedAbandon":           {agent, "/clarify abandon CLR-42-001"},
		"editedAssume":            {agent, "/assume per key"},
		"editedListing":           {maria, "/clarify"},
		"editedMalformedCommand":  {maria, "/clarify frob"},
		"editedTwoCommands":       {maria, "/respond a\n/respond b"},
		"editedCommandFromAnyone": {stranger, "/clarify stats"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ev := Event{Kind: EventComment, CommentID: 900, Actor: tc.who, Body: tc.body, At: t0, Edited: true}
			r := Apply(base, ev, p, t0.Add(24*time.Hour))
			if len(r.Effects) != 0 || !strings.Contains(r.Ignored, "edited") {
				t.Errorf("effects %+v, ignored %q: an edited comment runs no command, and the log says so", r.Effects, r.Ignored)
			}
			want := base.Clone()
			want.Cursor = 900
			if !reflect.DeepEqual(r.Ledger, want) {
				t.Error("an edited command changed the ledger beyond its cursor")
			}
		})
	}
}

func TestAnswerFromAnEditedReplySaysSo(t *testing.T) {
	p := DefaultPolicy()
	base, _ := play(p, step{agent, "/clarify @maria Per key or per IP?", ""})
	for name, edited := range map[string]bool{"editedReplyIsMarked": true, "newReplyIsNot": false} {
		t.Run(name, func(t *testing.T) {
			ev := Event{Kind: EventComment, CommentID: 900, Actor: maria, Body: "Per key.", At: t0, Edited: edited}
			r := Apply(base, ev, p, t0)
			c := r.Ledger.Clarifications[0]
			last := c.Thread[len(c.Thread)-1]
			if c.Status != Answered || last.Kind != KindAnswer || last.Edited != edited {
				t.Errorf("%s, last entry %+v; want answered with Edited %v", c.Status, last, edited)
			}
		})
	}
}

// TestEscalationsAreAnnouncedWhenNews: the asker escalates, the target answers, and the
// asker escalates again with a new reason (news: a second call) and once more (past the
// second call: a reply says so). The next round's escalation calls them again.
func TestEscalationsAreAnnouncedWhenNews(t *testing.T) {
	p := DefaultPolicy()
	steps := []step{
		{agent, "/clarify @maria Per key or per IP?", ""},
		{agent, "/clarify escalate CLR-42-001 no answer", ""},
		{maria, "Per key.", ""},
		{agent, "/clarify escalate CLR-42-001 that answer contradicts the spec", ""},
		{agent, "/clarify escalate CLR-42-001 still stuck", ""},
		{maria, "Per key, really.", ""},
		{agent, "/clarify followup CLR-42-001 Which key header?", ""},
		{agent, "/clarify escalate CLR-42-001 no answer again", ""},
	}
	l, rs := play(p, steps...)
	kinds := func(r Result) []string {
		var out []string
		for _, e := range r.Effects {
			out = append(out, string(e.Kind)+" "+e.Key+" "+string(e.Reply.Code))
		}
		return out
	}
	want := map[int][]string{
		1: {"escalate escalate:CLR-42-001:1 "},
		3: {"escalate escalate:CLR-42-001:1:2 "},
		4: {"reply reply:104 called-twice"},
		7: {"escalate escalate:CLR-42-001:2 "},
	}
	for i, w := range want {
		if got := kinds(rs[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("step %d (%q): effects %v, want %v", i, steps[i].body, got, w)
		}
	}
	c := l.Clarifications[0]
	n := 0
	for _, e := range c.Thread {
		if e.Kind == KindEscalation {
			n++
		}
	}
	if c.Status != Escalated || c.Round != 2 || n != 3 {
		t.Errorf("status %s, round %d, %d escalations in the thread; want escalated, 2, 3", c.Status, c.Round, n)
	}
}

func TestSilentAskerAfterAnEarlierEscalationIsAnnouncedAgain(t *testing.T) {
	p := DefaultPolicy()
	l, _ := play(p, step{agent, "/clarify @maria Per key or per IP?", ""})
	first := Tick(Tick(l, p, t0.Add(p.SLA)).Ledger, p, t0.Add(2*p.SLA))
	answered := Apply(first.Ledger, Event{Kind: EventComment, CommentID: 500, Actor: maria, Body: "Per key.", At: t0.Add(3 * p.SLA)}, p, t0.Add(3*p.SLA))
	stale := Tick(answered.Ledger, p, t0.Add(4*p.SLA))
	second := Tick(stale.Ledger, p, t0.Add(5*p.SLA))
	if len(first.Effects) != 1 || len(second.Effects) != 1 || first.Effects[0].Kind != EffectEscalate || second.Effects[0].Kind != EffectEscalate {
		t.Fatalf("effects %+v then %+v, want an escalation each", first.Effects, second.Effects)
	}
	if a, b := first.Effects[0].Key, second.Effects[0].Key; a == b {
		t.Errorf("both escalations have the key %q: the second would never be posted", a)
	}
}
