package clarify

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ReadAnswer reads a reply as the answer e expects (options are the round's, for
// ExpectOption) and returns its value as JSON: a boolean, a number, a "YYYY-MM-DD" string,
// or the option ({"key": "b", "text": "…"}). Text takes any reply and has no value. When the
// reply does not fit it returns why, in words that follow "this reply …".
func ReadAnswer(e Expect, opts []Option, reply string) (Value, string) {
	s := withoutIDs(reply)
	switch e.Kind {
	case ExpectYesNo:
		return readYesNo(s)
	case ExpectNumber:
		return e.readNumber(s)
	case ExpectDate:
		return readDate(s)
	case ExpectOption:
		return readOption(opts, s)
	}
	return "", ""
}

// withoutIDs is a reply without the clarification ids it names ("CLR-42-001: yes"): an id
// says which question is answered, and its digits are no number of the answer.
func withoutIDs(s string) string {
	return strings.TrimLeft(idPattern.ReplaceAllString(s, " "), " \t\n:,–—")
}

var idPattern = regexp.MustCompile(`(?i)\bCLR-\d+-\d+\b`)

var (
	yesWords = []string{"yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "true", "correct", "affirmative"}
	noWords  = []string{"no", "n", "nope", "nah", "false", "negative"}
)

// readYesNo takes the reply's first word: "Yes, ship it." is yes and "no, not now" is no;
// "I think so" names neither.
func readYesNo(s string) (Value, string) {
	first, _ := cutToken(s)
	first = strings.ToLower(strings.Trim(first, ".,;:!?\"'*_()`"))
	for _, w := range yesWords {
		if first == w {
			return Value("true"), ""
		}
	}
	for _, w := range noWords {
		if first == w {
			return Value("false"), ""
		}
	}
	return "", "does not start with yes or no"
}

// numberPattern finds numbers as people write them: 42, -3, 2.5, 1,000 and 1,000.5. A sign
// counts only where it cannot be a dash between two numbers ("1-2").
var numberPattern = regexp.MustCompile(`(?:^|[^\w.])([-+]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`)

// readNumber takes the one number in the reply: "42 workers" is 42; the same number twice
// is still one, and "1,000" is a thousand; two different numbers, or none, fit no number question.
func (e Expect) readNumber(s string) (Value, string) {
	var found []float64
	for _, m := range numberPattern.FindAllStringSubmatch(s, -1) {
		f, err := strconv.ParseFloat(m[1]+strings.ReplaceAll(m[2], ",", ""), 64)
		if err != nil || math.IsInf(f, 0) {
			return "", "has a number too large to read"
		}
		if len(found) == 0 || found[0] != f {
			found = append(found, f)
		}
	}
	switch {
	case len(found) == 0:
		return "", "has no number in digits"
	case len(found) > 1:
		return "", fmt.Sprintf("has more than one number (%s and %s)", formatNumber(found[0]), formatNumber(found[1]))
	}
	f := found[0]
	if problem := e.outOfRange(f); problem != "" {
		return "", "gives " + formatNumber(f) + ", which is " + problem
	}
	return Value(formatNumber(f)), ""
}

// outOfRange says how f falls outside e's range, "" when it does not.
func (e Expect) outOfRange(f float64) string {
	switch {
	case e.HasMin && e.HasMax && (f < e.Min || f > e.Max):
		return "not from " + formatNumber(e.Min) + " to " + formatNumber(e.Max)
	case e.HasMin && f < e.Min:
		return "less than " + formatNumber(e.Min)
	case e.HasMax && f > e.Max:
		return "more than " + formatNumber(e.Max)
	}
	return ""
}

// The dates a reply may give: ISO (2026-12-01, or with a time after it: its day), and the month named in English, day first or
// month first ("1 Dec 2026", "Dec 1, 2026", "December 1st 2026"). A date written all in
// digits other than ISO's (01/12/2026) is read one way in one country and another way in
// the next, so it fits no date question.
var (
	isoDate      = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})(?:T|\b)`)
	dayMonthDate = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4})\b`)
	monthDayDate = regexp.MustCompile(`(?i)\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
)

// readDate takes the one date in the reply.
func readDate(s string) (Value, string) {
	var dates []string
	add := func(year, month, day string) {
		if d, ok := validDate(year, month, day); ok && (len(dates) == 0 || dates[0] != d) {
			dates = append(dates, d)
		}
	}
	for _, m := range isoDate.FindAllStringSubmatch(s, -1) {
		add(m[1], m[2], m[3])
	}
	for _, m := range dayMonthDate.FindAllStringSubmatch(s, -1) {
		add(m[3], monthNumber(m[2]), m[1])
	}
	for _, m := range monthDayDate.FindAllStringSubmatch(s, -1) {
		add(m[3], monthNumber(m[1]), m[2])
	}
	switch {
	case len(dates) == 0:
		return "", "has no date written as `2026-12-01` or `Dec 1, 2026`"
	case len(dates) > 1:
		return "", fmt.Sprintf("has more than one date (%s and %s)", dates[0], dates[1])
	}
	return valueOf(dates[0]), ""
}

// validDate is the ISO form of a date that exists (no 2026-02-30), or false.
func validDate(year, month, day string) (string, bool) {
	y, err1 := strconv.Atoi(year)
	m, err2 := strconv.Atoi(month)
	d, err3 := strconv.Atoi(day)
	if err1 != nil || err2 != nil || err3 != nil {
		return "", false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != m || t.Day() != d {
		return "", false
	}
	return t.Format(time.DateOnly), true
}

// monthNumber is the number of an English month's name or its usual short form ("Dec",
// "Sept"), as digits; "" for any other word.
func monthNumber(word string) string {
	w := strings.ToLower(word)
	for i := time.January; i <= time.December; i++ {
		name := strings.ToLower(i.String())
		if w == name || w == name[:3] || i == time.September && w == "sept" {
			return strconv.Itoa(int(i))
		}
	}
	return ""
}

// readOption takes an option by its letter ("b", "b)", "(b)", "option b", "b) per client
// IP") or by its text ("per client IP", or a reply that holds one option's text and no
// other's).
func readOption(opts []Option, s string) (Value, string) {
	s = strings.TrimSpace(s)
	if o, ok, problem := optionByLetter(opts, s); ok || problem != "" {
		if problem != "" {
			return "", problem
		}
		return valueOf(o), ""
	}
	reply := optionWords(s)
	var hits []Option
	for _, o := range opts {
		if t := optionWords(o.Text); t != "" && reply == t {
			return valueOf(o), ""
		} else if t != "" && strings.Contains(" "+reply+" ", " "+t+" ") {
			hits = append(hits, o)
		}
	}
	if len(hits) == 1 {
		return valueOf(hits[0]), ""
	}
	if len(hits) > 1 {
		return "", "names more than one option (" + optionKeys(hits) + ")"
	}
	return "", "names none of the options"
}

// optionByLetter reads a reply that starts with an option's letter: alone, or marked as an
// option's letter is ("b)", "(b)", "b."), optionally after the word "option". A bare
// word that is a letter ("a per-key limit") is text, not a letter. It reports a letter that
// no option has, or one whose text names another option, as a problem.
func optionByLetter(opts []Option, s string) (Option, bool, string) {
	if w, rest := cutToken(s); strings.EqualFold(w, "option") {
		s = rest
	}
	key, rest, ok := optionLine(asciiLower(s[:min(len(s), 3)]) + s[min(len(s), 3):])
	if !ok {
		tok := strings.TrimRight(s, ".!")
		if len(tok) != 1 || !isLetters(tok) {
			return Option{}, false, ""
		}
		key, rest = asciiLower(tok)[0], ""
	}
	i := int(key - 'a')
	if i >= len(opts) {
		return Option{}, false, fmt.Sprintf("names option %s, which the question does not offer (%s)", codeSpan(string(key)), optionKeys(opts))
	}
	if rest != "" && !strings.Contains(" "+optionWords(rest)+" ", " "+optionWords(opts[i].Text)+" ") {
		for j, o := range opts {
			if j != i && strings.Contains(" "+optionWords(rest)+" ", " "+optionWords(o.Text)+" ") {
				return Option{}, false, fmt.Sprintf("names option %s but gives the text of option %s", codeSpan(string(key)), codeSpan(o.Key))
			}
		}
	}
	return opts[i], true, ""
}

// optionWords is text as an option is matched: lower case, words only, one space apart.
func optionWords(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
	return strings.Join(f, " ")
}
