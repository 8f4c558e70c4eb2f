package clarify

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseExpect(t *testing.T) {
	cases := map[string]struct {
		in      string
		want    string // Expect.String; "" is text
		wantErr bool
	}{
		"yesNo":                {in: "yes/no", want: "yes/no"},
		"yesNoAnyCase":         {in: "Yes/No", want: "yes/no"},
		"boolean":              {in: "boolean", want: "yes/no"},
		"number":               {in: "number", want: "number"},
		"numberRange":          {in: "number 1..100", want: "number 1..100"},
		"numberRangeSpaced":    {in: "number 1 .. 100", want: "number 1..100"},
		"numberFrom":           {in: "number 0..", want: "number 0.."},
		"numberUpTo":           {in: "number ..2.5", want: "number ..2.5"},
		"numberNegative":       {in: "number -10..10", want: "number -10..10"},
		"date":                 {in: "date", want: "date"},
		"option":               {in: "option", want: "option"},
		"text":                 {in: "text", want: ""},
		"unknownKind":          {in: "colour", wantErr: true},
		"rangeBackwards":       {in: "number 100..1", wantErr: true},
		"rangeWithoutDots":     {in: "number 1-100", wantErr: true},
		"rangeEmpty":           {in: "number ..", wantErr: true},
		"rangeNotANumber":      {in: "number one..ten", wantErr: true},
		"rangeHex":             {in: "number 0x10..20", wantErr: true},
		"rangeInfinite":        {in: "number 1..Inf", wantErr: true},
		"wordsAfterAKind":      {in: "date please", wantErr: true},
		"wordsAfterYesNo":      {in: "yes/no maybe", wantErr: true},
		"emptyIsText":          {in: "", want: ""},
		"integerIsNoKind":      {in: "integer 1..3", wantErr: true},
		"optionsIsAnOption":    {in: "options", want: "option"},
		"optionsAnyCase":       {in: "Options", want: "option"},
		"decimalBoundsWritten": {in: "number 0.5..1.25", want: "number 0.5..1.25"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, err := ParseExpect(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseExpect(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			}
			if err == nil && e.String() != tc.want {
				t.Errorf("ParseExpect(%q) = %q, want %q", tc.in, e.String(), tc.want)
			}
		})
	}
}

var rateOptions = []Option{{Key: "a", Text: "per API key"}, {Key: "b", Text: "per client IP"}}

// readAnswerCases are replies that fit and that do not, per kind of answer expected.
var readAnswerCases = map[string]struct {
	expect string
	reply  string
	want   string // the value's JSON; "" when the reply does not fit
}{
	"yes":                    {"yes/no", "yes", "true"},
	"yesWithWords":           {"yes/no", "Yes, ship it.", "true"},
	"y":                      {"yes/no", "y", "true"},
	"boldYes":                {"yes/no", "**Yes**", "true"},
	"noWithWords":            {"yes/no", "no, not now", "false"},
	"nope":                   {"yes/no", "Nope.", "false"},
	"yesAfterTheID":          {"yes/no", "CLR-42-001: yes", "true"},
	"neither":                {"yes/no", "I think so", ""},
	"maybe":                  {"yes/no", "maybe later", ""},
	"numberAlone":            {"number", "42", "42"},
	"numberInWords":          {"number", "42 workers", "42"},
	"numberTwiceTheSame":     {"number", "42, yes 42", "42"},
	"numberAfterTheID":       {"number", "CLR-42-001: 8 workers", "8"},
	"negativeNumber":         {"number", "-3 degrees", "-3"},
	"decimal":                {"number", "2.5 GB.", "2.5"},
	"thousands":              {"number", "1,000 requests", "1000"},
	"twoNumbers":             {"number", "between 3 and 5", ""},
	"aRangeIsTwoNumbers":     {"number", "1-2 workers", ""},
	"numberAsAWord":          {"number", "about twenty", ""},
	"noDigits":               {"number", "as many as you like", ""},
	"inRange":                {"number 1..100", "100", "100"},
	"belowRange":             {"number 1..100", "0", ""},
	"aboveRange":             {"number 1..100", "150 workers", ""},
	"atLeast":                {"number 1..", "7", "7"},
	"belowAtLeast":           {"number 1..", "-1", ""},
	"isoDate":                {"date", "2026-12-01", `"2026-12-01"`},
	"isoDateWithATime":       {"date", "2026-12-01T09:00:00Z", `"2026-12-01"`},
	"isoDateInWords":         {"date", "Ship on 2026-12-01, please.", `"2026-12-01"`},
	"monthFirst":             {"date", "Dec 1, 2026", `"2026-12-01"`},
	"monthFirstLong":         {"date", "December 1st 2026", `"2026-12-01"`},
	"dayFirst":               {"date", "1 December 2026", `"2026-12-01"`},
	"sameDateTwice":          {"date", "2026-12-01 (Dec 1, 2026)", `"2026-12-01"`},
	"noSuchDay":              {"date", "2026-02-30", ""},
	"slashesAreAmbiguous":    {"date", "01/12/2026", ""},
	"twoDates":               {"date", "2026-12-01 or 2026-12-02", ""},
	"noDate":                 {"date", "next Tuesday", ""},
	"optionLetter":           {"option", "b", `{"key":"b","text":"per client IP"}`},
	"optionLetterUpper":      {"option", "B", `{"key":"b","text":"per client IP"}`},
	"optionLetterParen":      {"option", "b) per client IP", `{"key":"b","text":"per client IP"}`},
	"optionLetterBracketed":  {"option", "(a)", `{"key":"a","text":"per API key"}`},
	"optionWordAndLetter":    {"option", "Option b", `{"key":"b","text":"per client IP"}`},
	"optionText":             {"option", "per client IP", `{"key":"b","text":"per client IP"}`},
	"optionTextAnyCase":      {"option", "Per client IP.", `{"key":"b","text":"per client IP"}`},
	"optionTextInASentence":  {"option", "Let's go per API key, the gateway blocks the rest", `{"key":"a","text":"per API key"}`},
	"optionNotOffered":       {"option", "c", ""},
	"optionLetterOtherText":  {"option", "a) per client IP", ""},
	"bothOptionsNamed":       {"option", "per API key or per client IP?", ""},
	"noOptionNamed":          {"option", "whatever is cheaper", ""},
	"aWordIsNoLetter":        {"option", "a per-user limit", ""},
	"textTakesAnything":      {"text", "about twenty", ""},
	"textTakesAnythingEmpty": {"", "c", ""},
}

func TestReadAnswer(t *testing.T) {
	for name, tc := range readAnswerCases {
		t.Run(name, func(t *testing.T) {
			e, err := ParseExpect(tc.expect)
			if err != nil {
				t.Fatal(err)
			}
			got, misfit := ReadAnswer(e, rateOptions, tc.reply)
			if string(got) != tc.want {
				t.Errorf("ReadAnswer(%q, %q) = %s (%q), want %s", tc.expect, tc.reply, got, misfit, tc.want)
			}
			if fits := e.Kind == ExpectText || tc.want != ""; fits != (misfit == "") {
				t.Errorf("ReadAnswer(%q, %q): misfit %q, want it to fit: %v", tc.expect, tc.reply, misfit, fits)
			}
		})
	}
}

func TestAskExpectIsCheckedAtTheAsk(t *testing.T) {
	cases := map[string]struct {
		body string
		want string // the Expect the command carries
		code ErrorCode
	}{
		"numberRange":       {"/clarify @maria How many workers?\nExpect: number 1..100", "number 1..100", ""},
		"optionWithOptions": {"/clarify @maria Per key or IP?\nOptions:\na) per API key\nb) per client IP\nExpect: option", "option", ""},
		"boldField":         {"/clarify @maria Ship it?\n**Expect:** yes/no", "yes/no", ""},
		"followupExpects":   {"/clarify followup CLR-42-001 When?\nExpect: date", "date", ""},
		"unknownKind":       {"/clarify @maria How many?\nExpect: a lot", "", CodeBadExpect},
		"backwardsRange":    {"/clarify @maria How many?\nExpect: number 9..1", "", CodeBadExpect},
		"optionWithout":     {"/clarify @maria Which?\nExpect: option", "", CodeExpectNoOptions},
		"givenTwice":        {"/clarify @maria Which?\nExpect: date\nExpect: date", "", CodeBadCommand},
		"textIsTheDefault":  {"/clarify @maria Which?\nExpect: text", "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Parse(tc.body)
			var pe *ParseError
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("Parse: %v", err)
			case tc.code != "" && !errors.As(err, &pe):
				t.Fatalf("Parse = %+v, %v; want a refusal with code %s", c, err, tc.code)
			case tc.code != "" && codeOr(pe.Code) != tc.code:
				t.Fatalf("refusal code %q, want %q (%s)", pe.Code, tc.code, pe.Problem)
			case tc.code == "" && c.Expect != tc.want:
				t.Errorf("Expect = %q, want %q", c.Expect, tc.want)
			}
			if tc.code == "" && strings.Contains(c.Text, "Expect") {
				t.Errorf("the Expect: line stayed in the question: %q", c.Text)
			}
		})
	}
}

func codeOr(c ErrorCode) ErrorCode {
	if c == "" {
		return CodeBadCommand
	}
	return c
}

// TestAReplyThatDoesNotFitIsNotTheAnswer: a reply that does not fit leaves the
// clarification as it was and gets one reply saying what was expected; the next reply that
// fits answers it, with its typed value in the thread.
func TestAReplyThatDoesNotFitIsNotTheAnswer(t *testing.T) {
	p := DefaultPolicy()
	ask := step{agent, "/clarify @maria How many workers?\nExpect: number 1..100", ""}
	l, rs := play(p, ask, step{maria, "about twenty", ""}, step{maria, "/respond 150", ""}, step{maria, "20 workers", ""})
	asked := rs[0].Ledger
	for i, r := range rs[1:3] {
		wantNotTaken(t, asked, r, int64(101+i))
	}
	if got := rs[2].Effects[0].Reply.Try; got != "`/respond CLR-42-001 42`" {
		t.Errorf("a /respond that does not fit is shown %q", got)
	}
	c := l.Clarifications[0]
	if c.Status != Answered || c.Round != 1 || len(c.Thread) != 2 || string(c.Thread[1].Value) != "20" || c.Thread[1].Text != "20 workers" {
		t.Fatalf("after a reply that fits: %+v", c)
	}
	if rec := AskRecordOf(42, c); string(rec.Value) != "20" || rec.Answer != "20 workers" {
		t.Errorf("record value %s, answer %q", rec.Value, rec.Answer)
	}
}

// wantNotTaken asserts that r, of the reply in comment id, left the clarifications of asked
// as they were and answered the reply once, saying what was expected.
func wantNotTaken(t *testing.T, asked Ledger, r Result, id int64) {
	t.Helper()
	if !reflect.DeepEqual(r.Ledger.Clarifications, asked.Clarifications) {
		t.Errorf("reply %d changed the clarification: %+v", id, r.Ledger.Clarifications)
	}
	if len(r.Effects) != 1 || r.Effects[0].Kind != EffectReply || r.Effects[0].Reply.Code != CodeDoesNotFit ||
		r.Effects[0].Key != ReplyKey(id) || r.Effects[0].Reply.ID != "CLR-42-001" {
		t.Fatalf("reply %d: effects %+v, want one does-not-fit reply to it", id, r.Effects)
	}
	if got := r.Effects[0].Reply.Problem; !strings.Contains(got, "Expected a number from 1 to 100, such as `42`") {
		t.Errorf("reply %d: problem %q does not say what was expected", id, got)
	}
}

// TestAFollowupExpectsItsOwnKindOfAnswer: the expectation is the round's, like its
// options: a follow-up without Expect: takes any reply.
func TestAFollowupExpectsItsOwnKindOfAnswer(t *testing.T) {
	l, _ := play(DefaultPolicy(),
		step{agent, "/clarify @maria Ship it?\nExpect: yes/no", ""},
		step{maria, "yes", ""},
		step{agent, "/clarify followup CLR-42-001 Which region first?", ""},
		step{maria, "eu-west, then the rest", ""})
	c := l.Clarifications[0]
	if c.Status != Answered || c.Round != 2 || string(c.Thread[1].Value) != "true" || c.Thread[3].Value != "" || c.Expect != "" {
		t.Fatalf("after the follow-up's answer: %+v", c)
	}
}

func TestFormatCommandWritesExpect(t *testing.T) {
	c := Command{Kind: CmdAsk, Target: "maria", Text: "How many?", Expect: "number 1..100"}
	got, err := Parse(FormatCommand(c))
	if err != nil || got.Expect != "number 1..100" || got.Text != "How many?" {
		t.Fatalf("Parse(FormatCommand) = %+v, %v", got, err)
	}
}

// FuzzReadAnswer: whatever the reply, a reply that fits has a value that is valid JSON of
// the kind expected, and one that does not fit says why.
func FuzzReadAnswer(f *testing.F) {
	for _, tc := range readAnswerCases {
		f.Add(tc.expect, tc.reply)
	}
	f.Fuzz(func(t *testing.T, expect, reply string) {
		e, err := ParseExpect(expect)
		if err != nil {
			return
		}
		v, misfit := ReadAnswer(e, rateOptions, reply)
		var decoded any
		switch {
		case e.Kind == ExpectText:
			if v != "" || misfit != "" {
				t.Fatalf("text read %q as %s (%q)", reply, v, misfit)
			}
		case misfit == "" && json.Unmarshal([]byte(v), &decoded) != nil:
			t.Fatalf("ReadAnswer(%q, %q) = %s: not JSON", expect, reply, v)
		case misfit != "" && v != "":
			t.Fatalf("ReadAnswer(%q, %q) = %s and a misfit %q", expect, reply, v, misfit)
		case e.Kind == ExpectNumber && misfit == "":
			if n, ok := decoded.(float64); !ok || e.outOfRange(n) != "" {
				t.Fatalf("ReadAnswer(%q, %q) = %s: no number in range", expect, reply, v)
			}
		}
	})
}
