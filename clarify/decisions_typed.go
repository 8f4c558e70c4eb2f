package clarify

import (
	"encoding/json"
	"strings"
)

// Typed decisions. A question that expects a typed answer (expect.go) settles with a value
// too, read by the same rule as an answer: the decision's words (a resolve), the fallback
// option (a timeout) or the earlier decision offered (precedent). Words that do not fit
// still settle the question, since settling is the asker's or a maintainer's call: the
// asker's words keep the value of the answer it takes (as decider says of who decided),
// anyone else's carry none. A remembered decision keeps its value and the Expect it
// answered, so that a later question expecting the same kind of answer is offered the value
// itself (docs/decisions.md).

// valueIn is text's typed value as an answer to c's current round: "" when the round takes
// any reply, or when text does not fit.
func valueIn(c Clarification, text string) Value {
	v, _ := ReadAnswer(ExpectOf(c), c.Options, text)
	return v
}

// resolutionValue is the value of a resolve by resolver with decision: its words' value;
// when they do not fit, the last answer's if the asker settles (an agent's resolve says
// what a person answered, in its own words), else none.
func resolutionValue(c Clarification, resolver, decision string) Value {
	if v := valueIn(c, decision); v != "" || !strings.EqualFold(resolver, c.Asker.Login) {
		return v
	}
	return valueIn(c, LastAnswer(c))
}

// fallbackOption is c's fallback option; false when c has none, or names a letter no
// option has (the parser refuses such an ask; an older ledger might still hold one).
func fallbackOption(c Clarification) (Option, bool) {
	for _, o := range c.Options {
		if c.Fallback != "" && strings.EqualFold(o.Key, c.Fallback) {
			return o, true
		}
	}
	return Option{}, false
}

// fallbackValue is the typed value of c's fallback: the option itself for `Expect: option`,
// else the option's text read as an answer ("3 workers" is 3); "" when it does not fit.
func fallbackValue(c Clarification) Value {
	o, ok := fallbackOption(c)
	switch {
	case !ok:
		return ""
	case ExpectOf(c).Kind == ExpectOption:
		return valueOf(o)
	}
	return valueIn(c, o.Text)
}

// ValueFor is d's value as an answer to c, for an offer of d to c: d's value when c
// expects the same kind of answer and the value fits c's own range or options (an option
// is matched by its text and takes c's letter); "" when the offer is words alone.
func (d Decision) ValueFor(c Clarification) Value {
	e := ExpectOf(c)
	was, err := ParseExpect(d.Expect)
	if d.Value == "" || err != nil || was.Kind != e.Kind || e.Kind == ExpectText {
		return ""
	}
	if e.Kind != ExpectOption {
		return valueIn(c, d.Value.asReply())
	}
	var chosen Option
	if json.Unmarshal([]byte(d.Value), &chosen) != nil {
		return ""
	}
	for _, o := range c.Options {
		if optionWords(o.Text) == optionWords(chosen.Text) {
			return valueOf(o)
		}
	}
	return ""
}

// revisedValue is the value of words that replace d (`/clarify supersede`), read by what
// d's question expected. The memory keeps the option chosen, not the question's options, so
// words replacing an option decision have no value.
func (d Decision) revisedValue(words string) Value {
	e, err := ParseExpect(d.Expect)
	if err != nil || e.Kind == ExpectOption {
		return ""
	}
	v, _ := ReadAnswer(e, nil, words)
	return v
}

// asReply is the value as a reply gives it, for reading it again by another question's
// Expect: yes or no, the number, the date.
func (v Value) asReply() string {
	switch v {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	var s string
	if json.Unmarshal([]byte(v), &s) == nil {
		return s
	}
	return string(v)
}
