package clarify

import (
	"strings"
	"testing"
	"time"
)

func TestRefLineOfAnAsk(t *testing.T) {
	long := strings.Repeat("é", MaxRefRunes)
	cases := map[string]struct {
		body     string
		wantRef  string
		wantText string
		wantCode ErrorCode // "" for no error
	}{
		"refLineIsTakenOutOfTheQuestion": {"/clarify @maria Per key or per IP?\nRef: run-981/step-3", "run-981/step-3", "Per key or per IP?", ""},
		"refAmongTheFields":              {"/clarify @maria Per key?\nTopic: limits\nRef:   job 7  \nOptions:\na) key\nb) IP", "job 7", "Per key?", ""},
		"boldAndAnyCase":                 {"/clarify @maria Per key?\n**REF:** x-1", "x-1", "Per key?", ""},
		"twoHundredCharactersFit":        {"/clarify @maria Per key?\nRef: " + long, long, "Per key?", ""},
		"oneMoreIsTooLong":               {"/clarify @maria Per key?\nRef: " + long + "x", "", "", CodeTooLong},
		"emptyRef":                       {"/clarify @maria Per key?\nRef:", "", "", CodeBadCommand},
		"refTwice":                       {"/clarify @maria Per key?\nRef: a\nRef: b", "", "", CodeBadCommand},
		"controlCharacter":               {"/clarify @maria Per key?\nRef: a\tb", "", "", CodeBadCommand},
		"followupKeepsItsRef":            {"/clarify followup CLR-42-001 And reads?\nRef: x", "", "", CodeBadCommand},
		"refInACodeBlockIsQuestion":      {"/clarify @maria Per key?\n```\nRef: x\n```", "", "Per key?\n```\nRef: x\n```", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmd, err := Parse(tc.body)
			if tc.wantCode != "" {
				pe, ok := err.(*ParseError)
				if !ok || cmpCode(pe.Code) != tc.wantCode {
					t.Fatalf("Parse = %+v, %v; want a refusal with code %s", cmd, err, tc.wantCode)
				}
				return
			}
			if err != nil || cmd.Ref != tc.wantRef || cmd.Text != tc.wantText {
				t.Fatalf("Parse = ref %q text %q, %v; want ref %q text %q", cmd.Ref, cmd.Text, err, tc.wantRef, tc.wantText)
			}
		})
	}
}

// cmpCode is a ParseError's code as Apply refuses with it.
func cmpCode(c ErrorCode) ErrorCode {
	if c == "" {
		return CodeBadCommand
	}
	return c
}

// askWith is an ask of the agent's with a ref, and the state a dispatch's copy carries.
func askWith(l Ledger, who Actor, id int64, body, state string) Result {
	ev := Event{Kind: EventComment, CommentID: id, Actor: who, Body: body, At: t0.Add(time.Duration(id) * time.Minute), State: state}
	return Apply(l, ev, DefaultPolicy(), ev.At)
}

func TestAskKeepsRefAndState(t *testing.T) {
	state := "{\"thread\":\"é \\\"q\\\" -->\"}\x00" + strings.Repeat("QUJD", 100)
	r := askWith(NewLedger(42), agent, 100, "/clarify @maria Per key or per IP?\nRef: run-981/step-3", state)
	if len(r.Ledger.Clarifications) != 1 {
		t.Fatalf("ask not taken: %s %+v", r.Ignored, r.Effects)
	}
	c := r.Ledger.Clarifications[0]
	if c.Ref != "run-981/step-3" || c.State != state || FirstQuestion(c) != "Per key or per IP?" {
		t.Errorf("clarification ref %q state %q question %q", c.Ref, c.State, FirstQuestion(c))
	}
	rec := AskRecordOf(42, c)
	if rec.Ref != c.Ref || rec.State != state || rec.Status != "pending" || rec.Outcome != "" || rec.Question != "Per key or per IP?" {
		t.Errorf("asker's record = %+v", rec)
	}
	if OpenText(r.Ledger) < len(state) {
		t.Errorf("OpenText %d does not count the state's %d bytes, so the ledger's room would not see it", OpenText(r.Ledger), len(state))
	}
}

func TestSameRefIsTheSameAsk(t *testing.T) {
	first := askWith(NewLedger(42), agent, 100, "/clarify @maria Per key or per IP?\nRef: step-3", "s1").Ledger
	cases := map[string]struct {
		ledger   Ledger
		who      Actor
		body     string
		wantNew  bool
		wantKind EffectKind // the one effect of the retry, "" for a new ask's round
	}{
		"retryIsAskedOnce":                {first, agent, "/clarify @maria Per key or per IP?\nRef: step-3", false, EffectReact},
		"retryWithOtherWordsIsAskedOnce":  {first, agent, "/clarify @maria Key or IP, which one?\nRef: step-3", false, EffectReact},
		"anotherRefIsAnotherAsk":          {first, agent, "/clarify @maria Which header?\nRef: step-4", true, ""},
		"anotherAskersRefIsTheirs":        {first, maria, "/clarify @coder-agent Which header?\nRef: step-3", true, ""},
		"settledRefIsAskedAgain":          {settleAll(first), agent, "/clarify @maria Which header?\nRef: step-3", true, ""},
		"noRefIsNoRetryEvenIfTheFirstHad": {first, agent, "/clarify @maria Which header?", true, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := askWith(tc.ledger, tc.who, 200, tc.body, "")
			grew := len(r.Ledger.Clarifications) > len(tc.ledger.Clarifications)
			if grew != tc.wantNew {
				t.Fatalf("new clarification = %v, want %v (%s)", grew, tc.wantNew, r.Ignored)
			}
			if tc.wantNew {
				return
			}
			if len(r.Effects) != 1 || r.Effects[0].Kind != tc.wantKind || r.Ledger.Cursor != 200 {
				t.Errorf("the retry got %+v (cursor %d); want only a reaction, and the cursor past it", r.Effects, r.Ledger.Cursor)
			}
			if c := r.Ledger.Clarifications[0]; c.State != "s1" || c.Round != 1 || len(c.Thread) != 1 {
				t.Errorf("the retry changed the clarification: %+v", c)
			}
		})
	}
}

func settleAll(l Ledger) Ledger {
	l = l.Clone()
	for i := range l.Clarifications {
		settle(&l.Clarifications[i], Abandoned, "", Entry{Kind: KindNote}, t0)
	}
	return l
}

func TestTooLongStateIsRefusedAndChangesNothing(t *testing.T) {
	r := askWith(NewLedger(42), agent, 100, "/clarify @maria Per key?\nRef: step-3", strings.Repeat("x", MaxStateBytes+1))
	if len(r.Ledger.Clarifications) != 0 || r.Ledger.Seq != 0 {
		t.Fatalf("an ask with a state over 8 KiB opened %+v", r.Ledger.Clarifications)
	}
	if len(r.Effects) != 1 || r.Effects[0].Reply.Code != CodeTooLong || r.Effects[0].Reply.Ref != "step-3" {
		t.Fatalf("effects = %+v; want one refusal, code too-long, naming the ask's ref", r.Effects)
	}
	if ok := askWith(NewLedger(42), agent, 100, "/clarify @maria Per key?", strings.Repeat("x", MaxStateBytes)); len(ok.Ledger.Clarifications) != 1 {
		t.Errorf("a state of exactly 8 KiB was not taken: %+v", ok.Effects)
	}
}

func TestRefusalOfAnAskNamesItsRef(t *testing.T) {
	l := NewLedger(42)
	ev := Event{Kind: EventComment, CommentID: 100, Actor: agent, Body: "/clarify @maria Per key?\nRef: step-3", At: t0, IssueClosed: true}
	r := Apply(l, ev, DefaultPolicy(), t0)
	if len(r.Effects) != 1 || r.Effects[0].Reply.Code != CodeIssueClosed || r.Effects[0].Reply.Ref != "step-3" {
		t.Fatalf("effects = %+v; want the issue-closed refusal naming ref step-3", r.Effects)
	}
}

func TestOutcomeTellsTheEndingsApart(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria Per key?\nOptions:\na) key\nb) IP\nFallback: a", ""}
	cases := map[string]struct {
		steps []step
		wait  time.Duration // then a Tick this long after the last step
		want  string
	}{
		"pending":                        {[]step{ask}, 0, ""},
		"answered":                       {[]step{ask, {maria, "Per key.", ""}}, 0, OutcomeAnswered},
		"resolvedByThePerson":            {[]step{ask, {maria, "Per key.", ""}, {agent, "/clarify resolve CLR-42-001 per key", ""}}, 0, OutcomeResolved},
		"aPersonTypingThePrefixIsThem":   {[]step{ask, {maria, "/clarify resolve CLR-42-001 timeout_assumed: key", ""}}, 0, OutcomeResolved},
		"abandoned":                      {[]step{ask, {agent, "/clarify abandon CLR-42-001", ""}}, 0, OutcomeAbandoned},
		"issueClosed":                    {[]step{ask, {maria, "", EventClosed}}, 0, OutcomeAbandoned},
		"staleIsStillWaiting":            {[]step{ask}, DefaultSLA + time.Minute, ""},
		"answerGoneStaleIsStillAnswered": {[]step{ask, {maria, "Per key.", ""}}, DefaultSLA + time.Minute, OutcomeAnswered},
		"followupWaitsAgain":             {[]step{ask, {maria, "Per key.", ""}, {agent, "/clarify followup CLR-42-001 Which limit?", ""}}, 0, ""},
		"fallbackAfterTheSecondTimeout":  {[]step{ask}, 2*DefaultSLA + 2*time.Minute, OutcomeTimeoutAssumed},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, _ := play(p, tc.steps...)
			if tc.wait > 0 {
				// Two sweeps: the first marks it stale, the second takes the fallback.
				at := t0.Add(time.Duration(len(tc.steps)) * time.Minute)
				l = Tick(l, p, at.Add(DefaultSLA+time.Minute)).Ledger
				if tc.wait > DefaultSLA+time.Minute {
					l = Tick(l, p, at.Add(tc.wait)).Ledger
				}
			}
			c, _ := l.Find("CLR-42-001")
			if got := Outcome(c); got != tc.want {
				t.Errorf("Outcome = %q (status %s), want %q", got, c.Status, tc.want)
			}
			if got := AskRecordOf(42, c).Outcome; got != tc.want {
				t.Errorf("AskRecordOf(...).Outcome = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestARefIsTheAskersOwn (issue 33): two workflows dispatch as the same github-actions[bot]
// with the same ref, each with its own nonce: each gets its own clarification, and a retry
// with a nonce repeats only the ask of that nonce.
func TestARefIsTheAskersOwn(t *testing.T) {
	ci := Actor{Login: "github-actions[bot]", Bot: true, Permission: "write"}
	ask := func(l Ledger, id int64, nonce string) Result {
		ev := Event{Kind: EventComment, CommentID: id, Actor: ci, Body: "/clarify @maria Asked by " + nonce + "?\nRef: step-1",
			At: t0.Add(time.Duration(id) * time.Minute), Nonce: nonce}
		return Apply(l, ev, DefaultPolicy(), ev.At)
	}
	l := ask(NewLedger(42), 100, "n-one").Ledger
	l = ask(l, 101, "n-two").Ledger
	if len(l.Clarifications) != 2 || l.Clarifications[0].Nonce != "n-one" || l.Clarifications[1].Nonce != "n-two" {
		t.Fatalf("two askers' step-1: %+v; want two clarifications, each with its nonce", l.Clarifications)
	}
	if again := ask(l, 102, "n-two").Ledger; len(again.Clarifications) != 2 {
		t.Errorf("a retry with the second nonce opened a third clarification")
	}
	if c, ok := SameAsk(l, ci.Login, "step-1", "n-three"); ok {
		t.Errorf("SameAsk gave another asker's %s", c.ID)
	}
}

func TestChosenOptionIsTheOptionTheTextNames(t *testing.T) {
	opts := []Option{{Key: "a", Text: "per API key"}, {Key: "b", Text: "per client IP"}}
	for text, want := range map[string]string{
		"b": "b", " B ": "b", "(b)": "b", "b)": "b", "b.": "b",
		"b) per client IP: the gateway keys by IP":      "b",
		"a. per API key\n\nanonymous calls are blocked": "a",
		"Per client IP.":               "b",
		"a lot depends on the gateway": "", "c": "", "": "", "per key, I think": "",
	} {
		got, ok := ChosenOption(opts, text)
		if (want == "") == ok || got.Key != want {
			t.Errorf("ChosenOption(%q) = %+v, %v; want %q", text, got, ok, want)
		}
	}
	if _, ok := ChosenOption(nil, "a"); ok {
		t.Error("a question without options has a choice")
	}
}

func TestNextStepFollowsStatusAndOutcome(t *testing.T) {
	for _, tc := range []struct{ status, outcome, want string }{
		{"pending", "", NextWait}, {"stale", "", NextWait}, {"escalated", "", NextWait},
		{"answered", OutcomeAnswered, NextAct}, {"stale", OutcomeAnswered, NextAct}, {"escalated", OutcomeAnswered, NextAct},
		{"resolved", OutcomeResolved, ""}, {"resolved", OutcomeTimeoutAssumed, ""}, {"abandoned", OutcomeAbandoned, ""},
		{StatusPosted, "", NextPosted},
	} {
		if got := NextStep(tc.status, tc.outcome); got != tc.want {
			t.Errorf("NextStep(%s, %s) = %q, want %q", tc.status, tc.outcome, got, tc.want)
		}
	}
}
