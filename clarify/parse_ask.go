package clarify

import "strings"

// askTypes are the values an ask's Type: line may take (docs/agents.md, commands in an issue).
var askTypes = []string{"mutually-exclusive-requirements", "missing-external-data", "security-decision"}

// askSection is the part of an ask's body a line belongs to: an Options: or Evidence: field
// goes on over the list lines after it, and anything else is the question.
type askSection int

const (
	inQuestion askSection = iota
	inOptions
	inEvidence
)

// askBody reads the body of an ask or a follow-up one line at a time: the question's words,
// and the long-form fields it carries.
type askBody struct {
	p       commandParser
	c       Command
	q       textBuilder
	section askSection
	// afterOption says the previous line was an option, so an indented line continues it.
	afterOption bool
	seen        map[string]bool // the fields given so far
}

// question fills an ask's or a follow-up's question and its long-form fields (Topic:, Type:,
// Options: with a) b) lines, Fallback:, Expect:, Evidence: with - item lines) from first (the
// rest of the command line) and the body lines. Fields are recognised only at the start of
// text lines; code blocks are kept verbatim in the question.
func (p commandParser) question(c Command, first string) (Command, error) {
	b := askBody{p: p, c: c, seen: map[string]bool{}}
	b.q.text(first)
	for _, l := range p.body {
		if err := b.line(l); err != nil {
			return Command{}, err
		}
	}
	return b.finish()
}

// line takes one body line: a field, an item of the list a field opened, or the question's.
func (b *askBody) line(l scannedLine) error {
	switch {
	case l.kind == quoteLine:
		return nil
	case l.kind == codeLine:
		b.section, b.afterOption = inQuestion, false
		b.q.code(l.text)
		return nil
	case l.blank():
		// A blank line ends the evidence, but options may stand a blank line apart.
		if b.section == inEvidence {
			b.section = inQuestion
		}
		b.afterOption = false
		b.q.text("")
		return nil
	}
	if name, value, ok := fieldLine(l.text); ok && isAskField(name) {
		return b.field(name, value, l.text)
	}
	if taken, err := b.listItem(l.text); taken || err != nil {
		return err
	}
	b.q.text(l.text)
	return nil
}

// field takes a field line, once per field.
func (b *askBody) field(name, value, text string) error {
	if b.seen[name] {
		return b.p.fail("`"+fieldTitle(name)+":` appears twice.", "give each field once, as in `"+fieldTitle(name)+": "+fieldExample(name)+"`.")
	}
	b.seen[name] = true
	b.section, b.afterOption = inQuestion, false
	switch name {
	case "topic":
		if value == "" {
			return b.p.fail("`Topic:` is empty.", "name the topic, as in `Topic: cache storage`, or leave the line out.")
		}
		b.c.Topic = value
	case "type":
		t, ok := askType(value)
		if !ok {
			return b.p.fail(codeSpan(shorten(strings.TrimSpace(text)))+" is not a type Clarify knows.",
				"use one of `Type: mutually-exclusive-requirements`, `Type: missing-external-data` or `Type: security-decision`, or leave the line out.")
		}
		b.c.Type = t
	case "options":
		return b.optionsField(value)
	case "fallback":
		b.c.Fallback = value // checked against the options once they are all read
	case "evidence":
		b.section = inEvidence
		if value != "" {
			b.c.Evidence = append(b.c.Evidence, value)
		}
	case "ref":
		return b.ref(value)
	case "expect":
		e, err := ParseExpect(value)
		if err != nil {
			return &ParseError{Line: b.p.line, Problem: "`Expect:` will not do: " + err.Error() + ".", Try: expectTry, Code: CodeBadExpect}
		}
		b.c.Expect = e.String()
	case "needs":
		return b.needs(value)
	}
	return nil
}

// needs takes an ask's `Needs:` line: how many people's answers it needs.
func (b *askBody) needs(value string) error {
	if b.c.Kind != CmdAsk {
		return b.p.fail("`Needs:` belongs to an ask: a follow-up needs as many people as its ask did.",
			"leave the `Needs:` line out of the follow-up.")
	}
	n, err := ParseNeeds(value)
	if err != nil {
		return &ParseError{Line: b.p.line, Problem: "`Needs:` will not do: " + err.Error() + ".",
			Try: "give how many people must answer, as in `Needs: 2`.", Code: CodeBadNeeds}
	}
	b.c.Needs = n
	return nil
}

// ref takes an ask's `Ref:` line, the asker's correlation id. A follow-up keeps the ref of
// the clarification it follows.
func (b *askBody) ref(value string) error {
	switch {
	case b.c.Kind != CmdAsk:
		return b.p.fail("`Ref:` belongs to an ask: a follow-up keeps the ref of the clarification it follows.",
			"leave the `Ref:` line out of the follow-up.")
	case value == "":
		return b.p.fail("`Ref:` is empty.", "give your own id for this ask, as in `Ref: run-981/step-3`, or leave the line out.")
	}
	if problem, code := RefProblem(value); problem != "" {
		return &ParseError{Line: b.p.line, Problem: "`Ref:` will not do: " + problem,
			Try: "send a short id on one line, as in `Ref: run-981/step-3`.", Code: code}
	}
	b.c.Ref = value
	return nil
}

// optionsField opens the list of options; some write them on the Options: line itself.
func (b *askBody) optionsField(value string) error {
	b.section = inOptions
	if value == "" {
		return nil
	}
	opts, err := b.p.inlineOptions(value)
	if err != nil {
		return err
	}
	b.c.Options = opts
	b.afterOption = true
	return nil
}

// listItem takes a line of the list an Options: or Evidence: field opened, and reports
// whether it did; any other line ends the list.
func (b *askBody) listItem(text string) (bool, error) {
	switch b.section {
	case inOptions:
		return b.optionItem(text)
	case inEvidence:
		item, ok := bulletItem(text)
		if !ok {
			b.section = inQuestion
			return false, nil
		}
		if item != "" {
			b.c.Evidence = append(b.c.Evidence, item)
		}
		return true, nil
	}
	return false, nil
}

// optionItem takes the next option, or an indented line that goes on with the last one.
func (b *askBody) optionItem(text string) (bool, error) {
	if key, rest, ok := optionLine(text); ok {
		opt, err := b.p.option(b.c.Options, key, rest)
		if err != nil {
			return false, err
		}
		b.c.Options = append(b.c.Options, opt)
		b.afterOption = true
		return true, nil
	}
	if b.afterOption && indentWidth(text) > 0 {
		last := &b.c.Options[len(b.c.Options)-1]
		last.Text += " " + strings.TrimSpace(text)
		return true, nil
	}
	b.section, b.afterOption = inQuestion, false
	return false, nil
}

// finish checks what can only be checked once every line is read, and returns the command.
func (b *askBody) finish() (Command, error) {
	if err := b.checkLists(); err != nil {
		return Command{}, err
	}
	if err := b.checkFallback(); err != nil {
		return Command{}, err
	}
	if b.c.Expect == string(ExpectOption) && len(b.c.Options) == 0 {
		return Command{}, &ParseError{Line: b.p.line, Problem: "`Expect: option` asks for one of the options, but the question has no `Options:`.",
			Try: "list the options: `Options:`, `a) Use Postgres`, `b) Use Redis`, or expect another kind of answer, as in `Expect: text`.", Code: CodeExpectNoOptions}
	}
	c := b.c
	c.Text = b.q.String()
	if c.Text == "" {
		if c.Kind == CmdFollowup {
			return Command{}, b.p.fail("`/clarify followup` needs a question after the id.",
				"`/clarify followup "+c.ID+" Does that hold for cached reads too?`")
		}
		target := c.Target
		if !c.BareTarget {
			target = "@" + target
		}
		return Command{}, b.p.fail("the question is empty.", codeSpan("/clarify "+target+" Which database should the cache use?"))
	}
	return c, nil
}

// checkLists refuses an Options: or Evidence: field that was given with nothing in it.
func (b *askBody) checkLists() error {
	if b.seen["options"] && len(b.c.Options) == 0 {
		return b.p.fail("`Options:` lists no options.",
			"put one option per line after it, lettered in order: `a) Use Postgres`, `b) Use Redis`.")
	}
	if b.seen["evidence"] && len(b.c.Evidence) == 0 {
		return b.p.fail("`Evidence:` lists nothing.",
			"write it on the same line, as in `Evidence: the spec says UTC (docs/spec.md)`, or as `- item` lines after it.")
	}
	return nil
}

// checkFallback reduces a Fallback: to the key of the option it names, which must be one the
// question offers: on timeout that option is taken without a human.
func (b *askBody) checkFallback() error {
	if !b.seen["fallback"] {
		return nil
	}
	key, ok := optionKey(b.c.Fallback)
	switch {
	case len(b.c.Options) == 0:
		return b.p.fail("`Fallback:` names an option, but the question has no `Options:`.",
			"list the options and name one: `Options:`, `a) Use Postgres`, `b) Use Redis`, `Fallback: a`.")
	case !ok || int(key-'a') >= len(b.c.Options):
		return b.p.fail(codeSpan(shorten("Fallback: "+b.c.Fallback))+" does not name one of the options ("+optionKeys(b.c.Options)+").",
			"name the option to take if nobody answers in time: `Fallback: a`.")
	}
	b.c.Fallback = string(key)
	return nil
}

// option checks that key is the next letter after opts and that the option says something.
func (p commandParser) option(opts []Option, key byte, text string) (Option, error) {
	want := byte('a' + len(opts))
	if len(opts) >= 26 || key != want {
		return Option{}, p.fail(codeSpan(string(key)+")")+" is out of order: options are lettered a), b), c) … in order, each once.",
			"put one option per line after `Options:`, lettered in order: `a) Use Postgres`, `b) Use Redis`.")
	}
	if text == "" {
		return Option{}, p.fail("option "+codeSpan(string(key)+")")+" has no text.",
			"say what the option is, as in `"+string(key)+") Use Postgres`.")
	}
	return Option{Key: string(key), Text: text}, nil
}

// inlineOptions reads "a) one b) two" written on the Options: line itself.
func (p commandParser) inlineOptions(s string) ([]Option, error) {
	key, text, ok := optionLine(s)
	if !ok {
		return nil, p.fail(codeSpan(shorten("Options: "+s))+" does not start with option `a)`.",
			"put one option per line after `Options:`, lettered in order: `a) Use Postgres`, `b) Use Redis`.")
	}
	var opts []Option
	for {
		next := key + 1
		end, after := -1, ""
		if next <= 'z' {
			end, after = inlineOptionMarker(text, next)
		}
		cur := text
		if end >= 0 {
			cur = text[:end]
		}
		opt, err := p.option(opts, key, strings.TrimSpace(cur))
		if err != nil {
			return nil, err
		}
		opts = append(opts, opt)
		if end < 0 {
			return opts, nil
		}
		key, text = next, after
	}
}

// inlineOptionMarker finds " b) " (for key b) in s: the index where it starts and the text
// after it, or -1.
func inlineOptionMarker(s string, key byte) (int, string) {
	marker := string(key) + ")"
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], marker)
		if j < 0 {
			return -1, ""
		}
		j += i
		end := j + len(marker)
		if j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') && (end == len(s) || s[end] == ' ' || s[end] == '\t') {
			return j, s[end:]
		}
		i = j + 1
	}
	return -1, ""
}

// fieldLine reads a long-form field line, "Name: value", at the start of a line (at most
// three columns in), the name in any case and optionally in bold as agents often write it
// ("**Topic:** …"). It returns the name in lower case and the value trimmed.
func fieldLine(text string) (name, value string, ok bool) {
	if indentWidth(text) > 3 {
		return "", "", false
	}
	s := strings.TrimLeft(text, " \t")
	bold := ""
	if strings.HasPrefix(s, "**") || strings.HasPrefix(s, "__") {
		bold, s = s[:2], s[2:]
	}
	name, value, ok = strings.Cut(s, ":")
	if !ok {
		return "", "", false
	}
	if bold != "" {
		switch {
		case strings.HasPrefix(value, bold):
			value = value[2:]
		case strings.HasSuffix(name, bold):
			name = name[:len(name)-2]
		default:
			return "", "", false
		}
	}
	if name == "" || !isLetters(name) {
		return "", "", false
	}
	return asciiLower(name), strings.TrimSpace(value), true
}

func isAskField(name string) bool {
	switch name {
	case "topic", "type", "options", "fallback", "evidence", "ref", "expect", "needs":
		return true
	}
	return false
}

func fieldTitle(name string) string { return strings.ToUpper(name[:1]) + name[1:] }

func fieldExample(name string) string {
	switch name {
	case "topic":
		return "cache storage"
	case "type":
		return "security-decision"
	case "fallback":
		return "a"
	case "evidence":
		return "the spec says UTC (docs/spec.md)"
	case "ref":
		return "run-981/step-3"
	case "expect":
		return "number 1..100"
	case "needs":
		return "2"
	}
	return ""
}

// askType normalises a Type: value ("Security_Decision" is security-decision).
func askType(v string) (string, bool) {
	v = strings.NewReplacer("_", "-", " ", "-").Replace(strings.ToLower(strings.TrimSpace(v)))
	for _, t := range askTypes {
		if v == t {
			return t, true
		}
	}
	return "", false
}

// optionLine reads an option line: "a) …", "a. …", "(a) …", each optionally after a list
// bullet ("- a) …"). The key is a single lower-case letter.
func optionLine(text string) (key byte, rest string, ok bool) {
	if indentWidth(text) > 3 {
		return 0, "", false
	}
	s := strings.TrimLeft(text, " \t")
	if after, ok := cutBullet(s); ok {
		s = strings.TrimLeft(after, " \t")
	}
	if strings.HasPrefix(s, "(") && len(s) >= 3 && s[2] == ')' {
		s = s[1:] // "(a) …" reads as "a) …"
	}
	if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || (s[1] != ')' && s[1] != '.') {
		return 0, "", false
	}
	if len(s) > 2 && s[2] != ' ' && s[2] != '\t' {
		return 0, "", false // "e.g." is a word, not option e
	}
	return s[0], strings.TrimSpace(s[2:]), true
}

// optionKey reads the option a Fallback: names: "a", "A", "a)", "(a)" or "a) Use Postgres".
func optionKey(v string) (byte, bool) {
	tok, _ := cutToken(v)
	tok = strings.TrimSuffix(strings.TrimPrefix(tok, "("), ")")
	tok = strings.TrimSuffix(tok, ".")
	tok = asciiLower(tok)
	if len(tok) != 1 || tok[0] < 'a' || tok[0] > 'z' {
		return 0, false
	}
	return tok[0], true
}

func optionKeys(opts []Option) string {
	keys := make([]string, len(opts))
	for i, o := range opts {
		keys[i] = o.Key
	}
	return strings.Join(keys, ", ")
}

// bulletItem reads a list item line, "- item" or "* item" or "+ item".
func bulletItem(text string) (string, bool) {
	if indentWidth(text) > 3 {
		return "", false
	}
	rest, ok := cutBullet(strings.TrimLeft(text, " \t"))
	if !ok {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// cutBullet removes a list bullet ("-", "*" or "+" before white space or the end of the
// line) from the start of s.
func cutBullet(s string) (string, bool) {
	if s == "" || (s[0] != '-' && s[0] != '*' && s[0] != '+') {
		return s, false
	}
	if len(s) > 1 && s[1] != ' ' && s[1] != '\t' {
		return s, false
	}
	return s[1:], true
}
