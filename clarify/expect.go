package clarify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Typed answers. An ask's `Expect:` line says what kind of answer its round takes, so that
// an agent reads a value rather than prose: yes/no, a number (optionally in a range), a
// date, or one of the ask's options. A reply that does not fit is not the answer: the
// clarification stays as it was and the replier is told what was expected (apply.go).
// Reading is lenient where people are ("Yes, ship it.", "42 workers", "b) per client IP")
// and strict where a guess would be wrong (two different numbers fit no number question).

// ExpectKind is the kind of answer a round's question takes.
type ExpectKind string

// The kinds of answer an `Expect:` line names; ExpectText (any reply) is the default.
const (
	ExpectText   ExpectKind = "text"
	ExpectYesNo  ExpectKind = "yes/no"
	ExpectNumber ExpectKind = "number"
	ExpectDate   ExpectKind = "date"
	ExpectOption ExpectKind = "option"
)

// Expect is a parsed `Expect:` value. The ledger keeps it as its String, the form a
// comment writes.
type Expect struct {
	Kind ExpectKind
	// Min and Max bound a number; HasMin and HasMax say which bounds were given.
	Min, Max       float64
	HasMin, HasMax bool
}

// expectTry shows every form an `Expect:` line takes, for the refusal of one that is none.
const expectTry = "use one of `Expect: yes/no`, `Expect: number`, `Expect: number 1..100`, `Expect: date`, `Expect: option` or `Expect: text`, or leave the line out."

// ParseExpect reads an `Expect:` value: yes/no (or boolean), number, number MIN..MAX
// (either bound may be left out), date, option (or options) or text, in any case. It returns what was wrong otherwise.
func ParseExpect(s string) (Expect, error) {
	word, rest := cutToken(asciiLower(s))
	var e Expect
	switch word {
	case "yes/no", "yes-no", "yesno", "boolean":
		e.Kind = ExpectYesNo
	case "number":
		e.Kind = ExpectNumber
		if rest != "" {
			return numberRange(rest)
		}
	case "date":
		e.Kind = ExpectDate
	case "option", "options":
		e.Kind = ExpectOption
	case "text", "":
		e.Kind = ExpectText
	default:
		return Expect{}, fmt.Errorf("%s is not a kind of answer Clarify knows", codeSpan(shorten(strings.TrimSpace(s))))
	}
	if rest != "" {
		return Expect{}, fmt.Errorf("`Expect: %s` takes nothing after it, and %s was given", e.Kind, codeSpan(shorten(rest)))
	}
	return e, nil
}

// numberRange reads the range of a number, "1..100", "0..", "..10".
func numberRange(s string) (Expect, error) {
	e := Expect{Kind: ExpectNumber}
	lo, hi, ok := strings.Cut(strings.ReplaceAll(s, " ", ""), "..")
	bad := fmt.Errorf("%s is not a range: write it as `number 1..100` (either bound may be left out)", codeSpan(shorten(s)))
	if !ok || lo == "" && hi == "" {
		return Expect{}, bad
	}
	var err error
	if lo != "" {
		if e.Min, err = strconv.ParseFloat(lo, 64); err != nil || !plainNumber(lo) {
			return Expect{}, bad
		}
		e.HasMin = true
	}
	if hi != "" {
		if e.Max, err = strconv.ParseFloat(hi, 64); err != nil || !plainNumber(hi) {
			return Expect{}, bad
		}
		e.HasMax = true
	}
	if e.HasMin && e.HasMax && e.Min > e.Max {
		return Expect{}, fmt.Errorf("%s is an empty range: the smaller bound comes first, as in `number 1..100`", codeSpan(shorten(s)))
	}
	return e, nil
}

// plainNumber reports whether s is digits with an optional sign and decimals: ParseFloat
// also takes "Inf", "0x10" and "1e3", which nobody means in a range.
func plainNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	whole, frac, _ := strings.Cut(s, ".")
	return whole != "" && digitsEnd(whole, 0) == len(whole) && digitsEnd(frac, 0) == len(frac)
}

// String is the `Expect:` value as a comment writes it, and as the ledger keeps it; "" for
// text, the default.
func (e Expect) String() string {
	switch {
	case e.Kind == ExpectText || e.Kind == "":
		return ""
	case e.Kind != ExpectNumber || !e.HasMin && !e.HasMax:
		return string(e.Kind)
	}
	r := "number "
	if e.HasMin {
		r += formatNumber(e.Min)
	}
	r += ".."
	if e.HasMax {
		r += formatNumber(e.Max)
	}
	return r
}

// ExpectOf is what c's current round expects; a ledger's `expect` is always one
// ParseExpect took, so an unreadable one (a hand-made ledger) is read as text.
func ExpectOf(c Clarification) Expect {
	e, err := ParseExpect(c.Expect)
	if err != nil {
		return Expect{Kind: ExpectText}
	}
	return e
}

// Describe says in words what e takes, with an example: "a number from 1 to 100, such as
// `42`".
func (e Expect) Describe(opts []Option) string {
	words := "any reply"
	switch e.Kind {
	case ExpectYesNo:
		words = "yes or no"
	case ExpectNumber:
		words = e.numberWords()
	case ExpectDate:
		words = "a date"
	case ExpectOption:
		words = "one of the options (" + optionKeys(opts) + "), by its letter or its text"
	}
	if ex := e.Example(opts); ex != "" {
		return words + ", such as `" + ex + "`"
	}
	return words
}

// Example is an answer e takes, as typed: "yes", "42", "2026-12-01", the first option's
// letter; "" for text.
func (e Expect) Example(opts []Option) string {
	switch e.Kind {
	case ExpectYesNo:
		return "yes"
	case ExpectNumber:
		return formatNumber(e.example())
	case ExpectDate:
		return "2026-12-01"
	case ExpectOption:
		if len(opts) > 0 {
			return opts[0].Key
		}
	}
	return ""
}

func (e Expect) numberWords() string {
	switch {
	case e.HasMin && e.HasMax:
		return "a number from " + formatNumber(e.Min) + " to " + formatNumber(e.Max)
	case e.HasMin:
		return "a number of at least " + formatNumber(e.Min)
	case e.HasMax:
		return "a number of at most " + formatNumber(e.Max)
	}
	return "a number"
}

// example is a number e takes: 42 when it can, else the nearest bound.
func (e Expect) example() float64 {
	switch {
	case e.HasMin && e.Min > 42:
		return e.Min
	case e.HasMax && e.Max < 42:
		return e.Max
	}
	return 42
}

// formatNumber writes a number as JSON and people write it: 42, 2.5, -3.
func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// doesNotFit turns away a reply that does not fit the answer c's round expects: c stays as
// it was (no answer, no round, nobody woken) and the replier is told, once for this reply,
// what was expected and why the reply is not it.
func (a *applier) doesNotFit(c Clarification, misfit string) {
	e := ExpectOf(c)
	line, try := a.cmd.Line, "reply again with the answer, as in `"+e.Example(c.Options)+"`."
	if a.cmd.Kind == CmdRespond {
		try = "`/respond " + c.ID + " " + e.Example(c.Options) + "`"
	} else {
		first, _, _ := strings.Cut(a.cmd.Text, "\n")
		line = shorten(strings.TrimSpace(first))
	}
	problem := fmt.Sprintf("Expected %s, as the answer to %s: this reply %s, so it is not taken, and %s still waits for its answer.",
		e.Describe(c.Options), c.ID, misfit, c.ID)
	a.ignore("refused: " + problem)
	// The record names the clarification, so that an agent that answered sees which one
	// still waits; not its ref, which `bot ask` reads as the refusal of an ask.
	a.reply(Reply{Kind: ReplyRefusal, Code: CodeDoesNotFit, To: a.ev.Actor.Login, Quote: line, Problem: problem, Try: try, ID: c.ID})
}

// Value is a typed answer's value as JSON text: true, 42, "2026-12-01" or {"key": "b",
// "text": "…"}; "" for none. A string rather than bytes, so that the records holding one stay
// comparable.
type Value string

// valueOf is v as a Value; v is a string or an Option, which always marshal.
func valueOf(v any) Value {
	b, _ := json.Marshal(v)
	return Value(b)
}

// MarshalJSON writes the value as the JSON it is (null for none: omitempty leaves it out).
func (v Value) MarshalJSON() ([]byte, error) {
	if v == "" {
		return []byte("null"), nil
	}
	return []byte(v), nil
}

// UnmarshalJSON keeps the JSON as it is, compacted, so that a value read from an indented
// file equals the one written.
func (v *Value) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = ""
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err
	}
	*v = Value(buf.String())
	return nil
}
