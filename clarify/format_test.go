package clarify

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// roundTripCommands are commands as a caller without a comment (a dispatch) fills them;
// each must come back from Parse(FormatCommand(c)) with the same fields.
func roundTripCommands() map[string]Command {
	opts := []Option{{Key: "a", Text: "Use Postgres"}, {Key: "b", Text: `Use "Redis" <b>fast</b>`}}
	cases := map[string]Command{
		"askRole":                     {Kind: CmdAsk, Target: "architect", BareTarget: true, Text: "Which database?"},
		"askLogin":                    {Kind: CmdAsk, Target: "maria", Text: "Per API key or per client IP?"},
		"askTeamNonBlocking":          {Kind: CmdAsk, Target: "octo-org/backend", NonBlocking: true, Text: "Which cache?"},
		"askLongForm":                 {Kind: CmdAsk, Target: "maria", Text: "Which store?", Topic: "storage", Type: "security-decision", Options: opts, Fallback: "b", Evidence: []string{"docs/spec.md says UTC", "issue #12"}},
		"askMultiLineQuestion":        {Kind: CmdAsk, Target: "maria", Text: "First line.\nSecond line, with `code` and 'quotes'.\n\nA paragraph."},
		"askOddCharacters":            {Kind: CmdAsk, Target: "maria", Text: `Is "a\b" --> ok? <b>ü</b> 漢字 👍 & 100% #12 @here`},
		"askOptionsWithoutFallback":   {Kind: CmdAsk, Target: "architect", BareTarget: true, Text: "Pick one", Options: opts},
		"askWithRef":                  {Kind: CmdAsk, Target: "maria", Text: "Which store?", Topic: "storage", Evidence: []string{"issue #12"}, Ref: `run-981/step-3 "é" --> 👍`},
		"askExpectOption":             {Kind: CmdAsk, Target: "maria", Text: "Which store?", Options: opts, Fallback: "a", Expect: "option", Evidence: []string{"issue #12"}},
		"followupExpectsANumber":      {Kind: CmdFollowup, ID: "CLR-42-001", Text: "How many workers?", Expect: "number 1..100"},
		"askEvidenceOnly":             {Kind: CmdAsk, Target: "maria", Text: "Why?", Evidence: []string{"`go test` fails: see run 42"}},
		"followup":                    {Kind: CmdFollowup, ID: "CLR-42-001", Text: "Does that hold for cached reads too?"},
		"followupLongForm":            {Kind: CmdFollowup, ID: "CLR-42-1000", Text: "And then?", Topic: "t", Options: opts, Fallback: "a"},
		"respondWithID":               {Kind: CmdRespond, ID: "CLR-42-001", Text: "Per API key."},
		"respondWithoutID":            {Kind: CmdRespond, Text: "Per API key, \"always\"."},
		"respondMultiLine":            {Kind: CmdRespond, Text: "Yes.\n\n- one\n- two"},
		"resolveWithIDAndDecision":    {Kind: CmdResolve, ID: "CLR-7-003", Text: "Store all timestamps in UTC"},
		"resolveBare":                 {Kind: CmdResolve},
		"resolveDecisionOnly":         {Kind: CmdResolve, Text: "Keep it as is"},
		"escalateWithReason":          {Kind: CmdEscalate, ID: "CLR-42-001", Text: "We keep going round in circles"},
		"escalateWithoutReason":       {Kind: CmdEscalate, ID: "CLR-42-001"},
		"abandon":                     {Kind: CmdAbandon, ID: "CLR-42-002"},
		"assume":                      {Kind: CmdAssume, Text: "Store all timestamps in UTC"},
		"assumeWithConfidenceAndRisk": {Kind: CmdAssume, Text: "UTC", Confidence: "high", Risk: "reports shift by an hour"},
		"list":                        {Kind: CmdList},
		"show":                        {Kind: CmdShow, ID: "CLR-42-001"},
		"stale":                       {Kind: CmdStale},
		"stats":                       {Kind: CmdStats},
	}
	// Every combination of the ask's optional parts.
	for mask := 0; mask < 1<<5; mask++ {
		c := Command{Kind: CmdAsk, Target: "maria", Text: "q?", NonBlocking: mask&1 != 0}
		if mask&2 != 0 {
			c.Topic = "a topic: with a colon"
		}
		if mask&4 != 0 {
			c.Type = "missing-external-data"
		}
		if mask&8 != 0 {
			c.Options, c.Fallback = opts, "a"
		}
		if mask&16 != 0 {
			c.Evidence = []string{"one", "two (2)"}
		}
		cases[fmt.Sprintf("askCombination%02d", mask)] = c
	}
	return cases
}

func TestParseReadsBackWhatFormatCommandWrites(t *testing.T) {
	for name, want := range roundTripCommands() {
		t.Run(name, func(t *testing.T) {
			written := FormatCommand(want)
			got, err := Parse(written)
			if err != nil {
				t.Fatalf("Parse(%q): %v", written, err)
			}
			if first, _, _ := strings.Cut(written, "\n"); got.Line != first {
				t.Errorf("Line = %q, want the written command line %q", got.Line, first)
			}
			got.Line = ""
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Parse(FormatCommand(c)) =\n%#v\nwant\n%#v\nwritten:\n%s", got, want, written)
			}
		})
	}
}

// TestFormatCommandWritesOneLineFieldsOnOneLine: a field that a line holds cannot carry a
// line break into the command, where it would be read as the question or as another field.
func TestFormatCommandWritesOneLineFieldsOnOneLine(t *testing.T) {
	c := Command{Kind: CmdAsk, Target: "maria", Text: "q", Topic: "two\nlines", Options: []Option{{Key: "a", Text: "x\nFallback: a"}}}
	want := "/clarify @maria q\nTopic: two lines\nOptions:\na) x Fallback: a"
	if got := FormatCommand(c); got != want {
		t.Errorf("FormatCommand = %q, want %q", got, want)
	}
}
