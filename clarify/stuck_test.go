package clarify

import (
	"reflect"
	"testing"
	"time"
)

func TestSimilar(t *testing.T) {
	cases := map[string]struct {
		a, b string
		want bool
	}{
		"sameWordsOtherCaseAndPunctuation": {"Which timezone should reports use?", "which timezone should the reports use??", true},
		"trailingPunctuationOnly":          {"Per key or per IP?", "per key or per IP", true},
		"politenessAndNaggingIgnored":      {"Please: which timezone should reports use?", "Which timezone should reports use again?", true},
		"greetingsAndThanksIgnored":        {"Hi! Which timezone should reports use? Thank you!", "Which timezone should reports use?", true},
		"markdownIgnored":                  {"Should the `rate_limit` apply per **API key**?", "Should the rate limit apply per API key?", true},
		"linkReducedToItsText":             {"See [the spec](https://example.com/spec#limits): per key or per IP?", "See the spec: per key or per IP?", true},
		"mentionsAndIDsIgnored":            {"@architect which DB should we use for sessions? (re CLR-42-001)", "Which DB should we use for sessions?", true},
		"whatAndWhichAskTheSame":           {"What timezone should reports use?", "Which timezone should reports use?", true},
		"pluralAndSingularMeet":            {"Which users should receive the alert?", "Which user should receive the alerts?", true},
		"contractionSpelledOut":            {"Don't we need a migration for this?", "Do we not need a migration for this?", true},
		"cannotAndCantMeet":                {"Why can't the worker reach Redis?", "Why cannot the worker reach Redis?", true},
		"shortQuestionReordered":           {"Which timezone should reports use?", "Reports should use which timezone?", true},
		"alternativesSwapped":              {"Per key or per IP?", "Per IP or per key?", true},
		"longQuestionWithOneWordAdded": {
			"When the upstream service times out, should the worker retry the job with exponential backoff or fail it immediately?",
			"When the upstream service times out, should the worker retry the failed job with exponential backoff or fail it immediately?", true},
		"multilineQuestionAsOneLine": {"Which timezone\nshould reports\n\nuse?", "Which timezone should reports use?", true},

		"differentSubject":                   {"Which timezone?", "Which database?", false},
		"differentObject":                    {"Which timezone should reports use?", "Which timezone should invoices use?", false},
		"negated":                            {"Should we cache responses?", "Should we not cache responses?", false},
		"negatedInALongQuestion":             {"When the upstream service times out, should the worker retry the job with exponential backoff before failing it?", "When the upstream service times out, should the worker not retry the job with exponential backoff before failing it?", false},
		"differentNumber":                    {"Should the limit be 100 requests per minute?", "Should the limit be 1000 requests per minute?", false},
		"numberedFollowupsDiffer":            {"next question 2?", "next question 3?", false},
		"differentVersion":                   {"Do we support IPv4 on the public endpoint?", "Do we support IPv6 on the public endpoint?", false},
		"sameShapeDifferentStore":            {"Should we use Postgres or MySQL for the session store?", "Should we use Postgres or MySQL for the audit log?", false},
		"oneAlternativeChanged":              {"Per key or per IP?", "Per user or per IP?", false},
		"narrowedByAWord":                    {"Which timezone should daily reports use?", "Which timezone should weekly reports use?", false},
		"subjectAndObjectSwapped":            {"Should the API call the worker?", "Should the worker call the API?", false},
		"sameTopicDifferentQuestion":         {"Which timezone should reports use?", "Should reports show the timezone?", false},
		"bothEmpty":                          {"", "", false},
		"oneEmpty":                           {"", "Which timezone?", false},
		"onlyTrivialWords":                   {"Please?", "please!", false},
		"onlyMentions":                       {"@maria", "@maria", false},
		"followUpThatBuildsOnTheAnswer":      {"Which timezone should reports use?", "Should UTC reports show the offset?", false},
		"shortQuestionNarrowedByAnAddedWord": {"Which timezone should reports use?", "Which timezone should weekly reports use?", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Similar(tc.a, tc.b); got != tc.want {
				t.Errorf("Similar(%q, %q) = %v, want %v (words %q / %q)", tc.a, tc.b, got, tc.want, questionWords(tc.a), questionWords(tc.b))
			}
			if got := Similar(tc.b, tc.a); got != tc.want {
				t.Errorf("Similar(%q, %q) = %v, want %v: not symmetric", tc.b, tc.a, got, tc.want)
			}
		})
	}
}

func TestSimilarIsReflexiveForRealQuestions(t *testing.T) {
	for _, q := range []string{"Which timezone?", "Per key or per IP?", "Should the `rate_limit` apply per **API key**?", "Ünïcode? Größe?"} {
		if !Similar(q, q) {
			t.Errorf("Similar(%q, itself) = false", q)
		}
	}
}

// stuckClarification is CLR-42-001 from coder-agent (engineer) to architect, with one
// question per round.
func stuckClarification(status Status, questions ...string) Clarification {
	c := Clarification{ID: "CLR-42-001", Asker: Party{Login: "coder-agent", Role: "engineer"},
		Target: Target{Kind: TargetRole, Name: "architect"}, Blocking: true, Status: status, MaxRounds: 5}
	for i, q := range questions {
		c.Round = i + 1
		c.Thread = append(c.Thread, Entry{Kind: KindQuestion, Round: i + 1, Author: "coder-agent", Text: q},
			Entry{Kind: KindAnswer, Round: i + 1, Author: "bob", Text: "Answer to " + q})
	}
	return c
}

func TestRepeatsEarlier(t *testing.T) {
	c := stuckClarification(Answered, "Which timezone should reports use?", "Should the report show the UTC offset?")
	cases := map[string]struct {
		question string
		want     bool
	}{
		"firstRoundAskedAgain":      {"which timezone should the reports use??", true},
		"latestRoundAskedAgain":     {"Should the reports show the UTC offset, please?", true},
		"newQuestion":               {"Should the offset be shown as +01:00 or as CET?", false},
		"answerTextIsNotAQuestion":  {"Answer to Which timezone should reports use?", false},
		"emptyFollowupIsNoneRepeat": {"", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := RepeatsEarlier(c, tc.question); got != tc.want {
				t.Errorf("RepeatsEarlier(%q) = %v, want %v", tc.question, got, tc.want)
			}
		})
	}
}

func TestBouncedBack(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"engineer": {"coder-agent", "second-agent"}, "architect": {"bob", "@octo/arch"}}
	q := "Should we shard the sessions table by tenant?"
	byLogin := Clarification{ID: "CLR-42-002", Asker: Party{Login: "maria"}, Target: Target{Kind: TargetLogin, Name: "loner-bot"},
		Status: Pending, Round: 1, Thread: []Entry{{Kind: KindQuestion, Round: 1, Author: "maria", Text: "Is the cache warm at start-up?"}}}
	ledger := func(status Status) Ledger {
		return tickLedger(stuckClarification(status, q), byLogin)
	}
	cases := map[string]struct {
		ledger   Ledger
		asker    string
		target   Target
		question string
		want     string // id, "" for none
	}{
		"architectAsksEngineersTheirOwnQuestion": {ledger(Pending), "bob", Target{TargetRole, "engineer"}, "Should we shard the sessions table by tenant??", "CLR-42-001"},
		"architectAsksTheAskerByLogin":           {ledger(Pending), "bob", Target{TargetLogin, "coder-agent"}, q, "CLR-42-001"},
		"architectAsksAnotherEngineerByLogin":    {ledger(Pending), "bob", Target{TargetLogin, "second-agent"}, q, "CLR-42-001"},
		"architectWithoutRoleListedByTeam":       {ledger(Stale), "bob", Target{TargetRole, "engineer"}, q, "CLR-42-001"},
		"answeredIsStillOpen":                    {ledger(Answered), "bob", Target{TargetRole, "engineer"}, q, "CLR-42-001"},
		"loginToLoginBouncedBack":                {ledger(Pending), "loner-bot", Target{TargetLogin, "maria"}, "Is the cache warm at start-up??", "CLR-42-002"},
		"sameDirectionIsNotABounce":              {ledger(Pending), "second-agent", Target{TargetRole, "architect"}, q, ""},
		"sameAskerIsARepeatNotABounce":           {ledger(Pending), "coder-agent", Target{TargetRole, "engineer"}, q, ""},
		"differentQuestionIsNoBounce":            {ledger(Pending), "bob", Target{TargetRole, "engineer"}, "Which shard key do you prefer for users?", ""},
		"otherTargetIsNoBounce":                  {ledger(Pending), "bob", Target{TargetLogin, "maria"}, q, ""},
		"resolvedIsNoBounce":                     {ledger(Resolved), "bob", Target{TargetRole, "engineer"}, q, ""},
		"abandonedIsNoBounce":                    {ledger(Abandoned), "bob", Target{TargetRole, "engineer"}, q, ""},
		"emptyLedger":                            {NewLedger(42), "bob", Target{TargetRole, "engineer"}, q, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, ok := BouncedBack(tc.ledger, p, tc.asker, tc.target, tc.question)
			if ok != (tc.want != "") || c.ID != tc.want {
				t.Errorf("BouncedBack = %q, %v; want %q", c.ID, ok, tc.want)
			}
		})
	}
}

func TestBouncedBackToATeam(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"engineer": {"coder-agent"}, "architect": {"bob", "@octo/arch"}}
	c := stuckClarification(Pending, "Which queue should jobs use?")
	c.Asker = Party{Login: "bob", Role: "architect"}
	c.Target = Target{Kind: TargetLogin, Name: "coder-agent"}
	got, ok := BouncedBack(tickLedger(c), p, "coder-agent", Target{Kind: TargetTeam, Name: "octo/arch"}, "Which queue should the jobs use?")
	if !ok || got.ID != c.ID {
		t.Errorf("a question bounced back to the asker's team: %q %v", got.ID, ok)
	}
}

func TestEscalateInLedger(t *testing.T) {
	now := tickStart.Add(time.Hour)
	cases := map[string]struct {
		status Status
		id     string
		reason string
		want   bool
	}{
		"pendingIsEscalated":        {Pending, "CLR-42-001", "stuck: the question came back", true},
		"staleIsEscalated":          {Stale, "CLR-42-001", "deadlock", true},
		"answeredIsEscalated":       {Answered, "CLR-42-001", "deadlock", true},
		"emptyReasonGetsOne":        {Pending, "CLR-42-001", "", true},
		"alreadyEscalatedPostsOnce": {Escalated, "CLR-42-001", "again", false},
		"resolvedStaysResolved":     {Resolved, "CLR-42-001", "late", false},
		"abandonedStaysAbandoned":   {Abandoned, "CLR-42-001", "late", false},
		"unknownIDChangesNothing":   {Pending, "CLR-42-009", "who?", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := stuckClarification(tc.status, "Q1?", "Q2?")
			c.StaleAfter = tickStart
			in := tickLedger(c)
			out, e, ok := EscalateInLedger(in, tc.id, tc.reason, "maria", 77, now)
			if ok != tc.want {
				t.Fatalf("ok = %v, want %v", ok, tc.want)
			}
			if !ok {
				if !reflect.DeepEqual(out, in) || !reflect.DeepEqual(e, Effect{}) {
					t.Errorf("refused escalation changed something: %+v %+v", out, e)
				}
				return
			}
			checkEscalated(t, out.Clarifications[0], e, now)
			if in.Clarifications[0].Status != tc.status || len(in.Clarifications[0].Thread) != 4 {
				t.Error("EscalateInLedger modified the ledger it was given")
			}
		})
	}
}

// checkEscalated asserts that maria's escalation (comment 77, round 2) landed in the
// clarification's thread and in the effect that posts it.
func checkEscalated(t *testing.T, got Clarification, e Effect, now time.Time) {
	t.Helper()
	last := got.Thread[len(got.Thread)-1]
	if got.Status != Escalated || !got.StaleAfter.IsZero() || !got.UpdatedAt.Equal(now) {
		t.Errorf("clarification %+v, want escalated without a deadline", got)
	}
	if last.Kind != KindEscalation || last.Author != "maria" || last.CommentID != 77 || last.Round != 2 || last.Text == "" || last.Text != e.Reason {
		t.Errorf("entry %+v for effect %+v", last, e)
	}
	want := Effect{Kind: EffectEscalate, Key: "escalate:CLR-42-001:2", ClarificationID: "CLR-42-001", CommentID: 77, Reason: last.Text}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("effect %+v, want %+v", e, want)
	}
}
