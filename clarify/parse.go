package clarify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// The examples that refusals show, so that every "what to type instead" is concrete.
const (
	exampleID  = "CLR-42-001"
	exampleAsk = "/clarify @architect Which database should the cache use?"
)

// clarifySubcommands lists the words that may follow /clarify, as a refusal shows them.
const clarifySubcommands = "`list`, `show`, `stale`, `stats`, `followup`, `resolve`, `escalate`, `abandon`"

// askTypes are the values an ask's Type: line may take (DESIGN.md, "What users type").
var askTypes = []string{"mutually-exclusive-requirements", "missing-external-data", "security-decision"}

// Parse reads one comment body and returns the command it holds. A body with no command line
// is a plain reply: Command{Kind: CmdNone, Text: <the reply's own words>, ID: <first CLR id
// mentioned>}. A malformed command returns a *ParseError saying what was wrong (Problem) and
// what to type instead (Try, with a concrete example in backticks), and the command line as
// typed (Line).
//
// Commands are taken only from text lines: never from code blocks, block quotes (an e-mail
// reply quotes the whole thread) or HTML comments; see scanBody.
func Parse(body string) (Command, error) {
	lines := scanBody(body)
	var at []int
	for i, l := range lines {
		if l.kind != textLine {
			continue
		}
		if _, _, ok := commandWord(l.text); ok {
			at = append(at, i)
		}
	}
	switch len(at) {
	case 0:
		return plainReply(lines), nil
	case 1:
	default:
		// Fail closed: running the first and dropping the rest, or running all of them in
		// some order, would both surprise someone.
		first, second := strings.TrimSpace(lines[at[0]].text), strings.TrimSpace(lines[at[1]].text)
		return Command{}, &ParseError{
			Line:    second,
			Problem: fmt.Sprintf("one command per comment: this comment holds %d command lines.", len(at)),
			Try: "post them as separate comments, one with " + codeSpan(shorten(first)) +
				" and another with " + codeSpan(shorten(second)) + ".",
		}
	}
	l := lines[at[0]]
	word, rest, _ := commandWord(l.text)
	p := commandParser{line: strings.TrimSpace(l.text), rest: strings.TrimSpace(rest), body: lines[at[0]+1:]}
	var cmd Command
	var err error
	switch word {
	case "clarify":
		cmd, err = p.clarify()
	case "respond":
		cmd, err = p.respond()
	default:
		cmd, err = p.assume()
	}
	if err != nil {
		return Command{}, err
	}
	cmd.Line = p.line
	return cmd, nil
}

// commandWord reports whether text is a command line: at most three columns of indentation,
// then /clarify, /respond or /assume (any case) followed by white space or the end of the
// line. It returns the command word in lower case and the rest of the line. Any other line
// starting with "/" (/cc, /lgtm, /usr/bin/env) is ordinary text.
func commandWord(text string) (word, rest string, ok bool) {
	if indentWidth(text) > 3 {
		return "", "", false
	}
	s := strings.TrimLeft(text, " \t")
	if !strings.HasPrefix(s, "/") {
		return "", "", false
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	switch w := asciiLower(s[1:end]); w {
	case "clarify", "respond", "assume":
		return w, s[end:], true
	}
	return "", "", false
}

// plainReply is a comment without a command: its words, and the first id it names.
func plainReply(lines []scannedLine) Command {
	var t textBuilder
	id := ""
	for i, l := range lines {
		switch l.kind {
		case textLine:
			if attribution(lines, i) {
				continue
			}
			if id == "" {
				id = firstID(l.text)
			}
			t.text(l.text)
		case codeLine:
			t.code(l.text)
		}
	}
	return Command{Kind: CmdNone, ID: id, Text: t.String()}
}

// commandParser parses the one command line of a comment and the body lines after it.
type commandParser struct {
	line string        // the command line as typed, trimmed
	rest string        // the command line after the command word, trimmed
	body []scannedLine // the lines after the command line
}

func (p commandParser) fail(problem, try string) error {
	return &ParseError{Line: p.line, Problem: problem, Try: try}
}

// text is first (the rest of the command line) followed by the body's text and code lines:
// quotes and HTML comments are not part of what someone answers or decides.
func (p commandParser) text(first string) string {
	var t textBuilder
	t.text(first)
	for _, l := range p.body {
		switch l.kind {
		case textLine:
			t.text(l.text)
		case codeLine:
			t.code(l.text)
		}
	}
	return t.String()
}

func (p commandParser) clarify() (Command, error) {
	tok, after := cutToken(p.rest)
	switch asciiLower(tok) {
	case "", "list":
		return Command{Kind: CmdList}, nil
	case "stale":
		return Command{Kind: CmdStale}, nil
	case "stats":
		return Command{Kind: CmdStats}, nil
	case "show":
		id, _, err := p.requiredID(after, "show", "/clarify show "+exampleID)
		return Command{Kind: CmdShow, ID: id}, err
	case "abandon":
		id, rest, err := p.requiredID(after, "abandon", "/clarify abandon "+exampleID)
		if err != nil {
			return Command{}, err
		}
		return Command{Kind: CmdAbandon, ID: id, Text: p.text(rest)}, nil
	case "escalate":
		id, rest, err := p.requiredID(after, "escalate", "/clarify escalate "+exampleID+" We keep going round in circles")
		if err != nil {
			return Command{}, err
		}
		return Command{Kind: CmdEscalate, ID: id, Text: p.text(rest)}, nil
	case "resolve":
		id, rest, err := p.optionalID(after, "/clarify resolve "+exampleID+" Store all timestamps in UTC")
		if err != nil {
			return Command{}, err
		}
		return Command{Kind: CmdResolve, ID: id, Text: p.text(rest)}, nil
	case "followup", "follow-up":
		id, rest, err := p.requiredID(after, "followup", "/clarify followup "+exampleID+" Does that hold for cached reads too?")
		if err != nil {
			return Command{}, err
		}
		return p.question(Command{Kind: CmdFollowup, ID: id}, rest)
	}
	if strings.HasPrefix(tok, "@") || strings.HasPrefix(tok, "--") || nonBlockingFlag(tok) {
		return p.ask()
	}
	return Command{}, p.notASubcommand(tok, after)
}

// ask parses /clarify [--non-blocking] @target [--non-blocking] <question>.
func (p commandParser) ask() (Command, error) {
	c := Command{Kind: CmdAsk}
	tok, after := cutToken(p.rest)
	if nonBlockingFlag(tok) {
		c.NonBlocking = true
		tok, after = cutToken(after)
	}
	if looksLikeFlag(tok) {
		return Command{}, p.unknownFlag(tok)
	}
	if !strings.HasPrefix(tok, "@") {
		return Command{}, p.fail("an ask needs a target: `@name`, `@org/team` or a configured `@role` right after `/clarify`.",
			"`"+exampleAsk+"`")
	}
	target, ok := parseTarget(tok)
	if !ok {
		return Command{}, p.fail(codeSpan(tok)+" is not a target: a login or role (letters, digits and single hyphens, at most 39) or `@org/team`.",
			"`"+exampleAsk+"`, or `/clarify @my-org/backend Which database should the cache use?`")
	}
	c.Target = target
	if tok, rest := cutToken(after); nonBlockingFlag(tok) {
		c.NonBlocking = true
		after = rest
	} else if looksLikeFlag(tok) {
		return Command{}, p.unknownFlag(tok)
	}
	return p.question(c, after)
}

func (p commandParser) unknownFlag(tok string) error {
	return p.fail(codeSpan(tok)+" is not an option of `/clarify`; the only one is `--non-blocking`.",
		"`/clarify @architect --non-blocking Which database should the cache use?`")
}

// notASubcommand refuses /clarify followed by a word that is neither a subcommand nor an
// @target. Whether it was a mistyped subcommand or an ask without its target is a guess, so
// the refusal leads with the likelier one and shows both.
func (p commandParser) notASubcommand(tok, after string) error {
	ask := "to ask, name the target with @: `" + exampleAsk + "`"
	subs := "the subcommands are " + clarifySubcommands + ", as in `/clarify show " + exampleID + "`"
	near := nearestSubcommand(tok)
	next, _ := cutToken(after)
	if isWord(tok) && (after == "" || idLike(next) || near != "") {
		problem := codeSpan(tok) + " is not a `/clarify` subcommand."
		if near != "" {
			problem += " Did you mean `" + near + "`?"
		}
		return p.fail(problem, subs+"; "+ask+".")
	}
	return p.fail("an ask needs a target: `/clarify` must be followed by `@name`, `@org/team` or a configured `@role`, or by a subcommand.",
		ask+"; "+subs+".")
}

// requiredID reads the id that show, abandon, escalate and followup need.
func (p commandParser) requiredID(after, sub, example string) (id, rest string, err error) {
	tok, rest := cutToken(after)
	if tok == "" {
		return "", "", p.fail("`/clarify "+sub+"` needs the id of a clarification.", "`"+example+"`")
	}
	id, ok := NormalizeID(trimIDPunct(tok))
	if !ok {
		return "", "", p.fail(codeSpan(tok)+" is not a clarification id; ids look like `"+exampleID+"`.", "`"+example+"`")
	}
	return id, rest, nil
}

// optionalID reads an id if the first token is one. A token that starts like an id but is
// not one is refused rather than taken as words: the author meant an id.
func (p commandParser) optionalID(after, example string) (id, rest string, err error) {
	tok, rest := cutToken(after)
	if !idLike(tok) {
		return "", after, nil
	}
	id, ok := NormalizeID(trimIDPunct(tok))
	if !ok {
		return "", "", p.fail(codeSpan(tok)+" is not a clarification id; ids look like `"+exampleID+"`.", "`"+example+"`")
	}
	return id, rest, nil
}

func (p commandParser) respond() (Command, error) {
	const example = "`/respond " + exampleID + " Store all timestamps in UTC.`"
	id, rest, err := p.optionalID(p.rest, "/respond "+exampleID+" Store all timestamps in UTC.")
	if err != nil {
		return Command{}, err
	}
	c := Command{Kind: CmdRespond, ID: id, Text: p.text(rest)}
	if c.Text == "" {
		return Command{}, p.fail("`/respond` needs an answer after it.",
			example+" (the id is optional when only one clarification waits for you).")
	}
	return c, nil
}

func (p commandParser) assume() (Command, error) {
	c := Command{Kind: CmdAssume}
	var t textBuilder
	t.text(p.rest)
	for _, l := range p.body {
		switch l.kind {
		case quoteLine:
			continue
		case codeLine:
			t.code(l.text)
			continue
		}
		name, value, ok := fieldLine(l.text)
		switch {
		case ok && name == "confidence":
			if c.Confidence != "" {
				return Command{}, p.fail("`Confidence:` appears twice.", "give it once: `Confidence: medium`.")
			}
			c.Confidence = value
		case ok && name == "risk":
			if c.Risk != "" {
				return Command{}, p.fail("`Risk:` appears twice.", "give it once: `Risk: reports in local time are off by the UTC offset`.")
			}
			c.Risk = value
		default:
			t.text(l.text)
		}
	}
	c.Text = t.String()
	if c.Text == "" {
		return Command{}, p.fail("`/assume` needs the decision you are assuming.",
			"`/assume Store all timestamps in UTC`, optionally followed by `Confidence: high` and `Risk: …` lines.")
	}
	return c, nil
}

// question fills an ask's or a follow-up's question and its long-form fields (Topic:, Type:,
// Options: with a) b) lines, Fallback:, Evidence: with - item lines) from first (the rest of
// the command line) and the body lines. Fields are recognised only at the start of text lines;
// code blocks are kept verbatim in the question.
func (p commandParser) question(c Command, first string) (Command, error) {
	const (
		inQuestion = iota
		inOptions
		inEvidence
	)
	var q textBuilder
	q.text(first)
	state := inQuestion
	afterOption := false // the previous line was an option, so an indented line continues it
	seen := map[string]bool{}
	for _, l := range p.body {
		switch l.kind {
		case quoteLine:
			continue
		case codeLine:
			state, afterOption = inQuestion, false
			q.code(l.text)
			continue
		}
		if l.blank() {
			if state == inEvidence {
				state = inQuestion
			}
			afterOption = false
			q.text("")
			continue
		}
		if name, value, ok := fieldLine(l.text); ok && isAskField(name) {
			field := "`" + fieldTitle(name) + ":`"
			if seen[name] {
				return Command{}, p.fail(field+" appears twice.", "give each field once, as in `"+fieldTitle(name)+": "+fieldExample(name)+"`.")
			}
			seen[name] = true
			state, afterOption = inQuestion, false
			switch name {
			case "topic":
				if value == "" {
					return Command{}, p.fail("`Topic:` is empty.", "name the topic, as in `Topic: cache storage`, or leave the line out.")
				}
				c.Topic = value
			case "type":
				t, ok := askType(value)
				if !ok {
					return Command{}, p.fail(codeSpan(shorten(strings.TrimSpace(l.text)))+" is not a type Clarify knows.",
						"use one of `Type: mutually-exclusive-requirements`, `Type: missing-external-data` or `Type: security-decision`, or leave the line out.")
				}
				c.Type = t
			case "options":
				state = inOptions
				if value == "" {
					break
				}
				opts, err := p.inlineOptions(value)
				if err != nil {
					return Command{}, err
				}
				c.Options = opts
				afterOption = true
			case "fallback":
				c.Fallback = value // checked against the options once they are all read
			case "evidence":
				state = inEvidence
				if value != "" {
					c.Evidence = append(c.Evidence, value)
				}
			}
			continue
		}
		switch state {
		case inOptions:
			if key, text, ok := optionLine(l.text); ok {
				opt, err := p.option(c.Options, key, text)
				if err != nil {
					return Command{}, err
				}
				c.Options = append(c.Options, opt)
				afterOption = true
				continue
			}
			if afterOption && indentWidth(l.text) > 0 {
				last := &c.Options[len(c.Options)-1]
				last.Text += " " + strings.TrimSpace(l.text)
				continue
			}
			state, afterOption = inQuestion, false
		case inEvidence:
			if item, ok := bulletItem(l.text); ok {
				if item != "" {
					c.Evidence = append(c.Evidence, item)
				}
				continue
			}
			state = inQuestion
		}
		q.text(l.text)
	}
	if seen["options"] && len(c.Options) == 0 {
		return Command{}, p.fail("`Options:` lists no options.",
			"put one option per line after it, lettered in order: `a) Use Postgres`, `b) Use Redis`.")
	}
	if seen["evidence"] && len(c.Evidence) == 0 {
		return Command{}, p.fail("`Evidence:` lists nothing.",
			"write it on the same line, as in `Evidence: the spec says UTC (docs/spec.md)`, or as `- item` lines after it.")
	}
	if seen["fallback"] {
		key, ok := optionKey(c.Fallback)
		switch {
		case len(c.Options) == 0:
			return Command{}, p.fail("`Fallback:` names an option, but the question has no `Options:`.",
				"list the options and name one: `Options:`, `a) Use Postgres`, `b) Use Redis`, `Fallback: a`.")
		case !ok || int(key-'a') >= len(c.Options):
			return Command{}, p.fail(codeSpan(shorten("Fallback: "+c.Fallback))+" does not name one of the options ("+optionKeys(c.Options)+").",
				"name the option to take if nobody answers in time: `Fallback: a`.")
		}
		c.Fallback = string(key)
	}
	c.Text = q.String()
	if c.Text == "" {
		if c.Kind == CmdFollowup {
			return Command{}, p.fail("`/clarify followup` needs a question after the id.",
				"`/clarify followup "+c.ID+" Does that hold for cached reads too?`")
		}
		return Command{}, p.fail("the question is empty.", codeSpan("/clarify @"+c.Target+" Which database should the cache use?"))
	}
	return c, nil
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
	case "topic", "type", "options", "fallback", "evidence":
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
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		s = strings.TrimLeft(s[2:], " \t")
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
	s := strings.TrimLeft(text, " \t")
	if len(s) == 0 || (s[0] != '-' && s[0] != '*' && s[0] != '+') {
		return "", false
	}
	if len(s) > 1 && s[1] != ' ' && s[1] != '\t' {
		return "", false
	}
	return strings.TrimSpace(s[1:]), true
}

// parseTarget reads "@name" or "@org/team" and returns it without the @. A trailing ":" or
// "," is punctuation ("/clarify @architect: which…").
func parseTarget(tok string) (string, bool) {
	name := strings.TrimRight(strings.TrimPrefix(tok, "@"), ":,")
	if org, team, ok := strings.Cut(name, "/"); ok {
		return name, validLogin(org) && validTeamSlug(team)
	}
	return name, validLogin(name)
}

// validLogin follows GitHub's rules for a login: letters, digits and single hyphens, not at
// either end, at most 39 characters. Configured role names follow the same rules.
func validLogin(s string) bool {
	if s == "" || len(s) > 39 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// validTeamSlug accepts a team slug as GitHub forms one: letters, digits, hyphens, underscores.
func validTeamSlug(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIAlnum(s[i]) && s[i] != '-' && s[i] != '_' {
			return false
		}
	}
	return true
}

// nonBlockingFlag reports whether tok is --non-blocking; --nonblocking and the em dash a
// phone's keyboard makes of "--" are accepted too.
func nonBlockingFlag(tok string) bool {
	switch asciiLower(tok) {
	case "--non-blocking", "--nonblocking", "—non-blocking", "—nonblocking":
		return true
	}
	return false
}

func looksLikeFlag(tok string) bool {
	return len(tok) > 2 && strings.HasPrefix(tok, "--") && isASCIIAlnum(tok[2])
}

// NormalizeID turns "clr-42-1" into "CLR-42-001" (seq zero-padded to at least 3 digits),
// ok=false if not an id. Issue and sequence numbers start at 1.
func NormalizeID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 4 || asciiLower(s[:4]) != "clr-" {
		return "", false
	}
	issue, seq, ok := strings.Cut(s[4:], "-")
	if !ok {
		return "", false
	}
	in, ok := idNumber(issue)
	if !ok {
		return "", false
	}
	sn, ok := idNumber(seq)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("CLR-%d-%03d", in, sn), true
}

// idNumber reads a positive decimal number of ASCII digits (leading zeros allowed), small
// enough that no real issue or sequence number is refused and no overflow is possible.
func idNumber(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	s = strings.TrimLeft(s, "0")
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// firstID finds the first clarification id in a line of text ("re CLR-42-1: yes"), normalised.
func firstID(s string) string {
	for i := 0; i+4 <= len(s); i++ {
		if asciiLower(s[i:i+4]) != "clr-" || (i > 0 && isIDChar(s[i-1])) {
			continue
		}
		j := i + 4
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+4 || j >= len(s) || s[j] != '-' {
			continue
		}
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j+1 || (k < len(s) && isIDChar(s[k])) {
			continue
		}
		if id, ok := NormalizeID(s[i:k]); ok {
			return id
		}
	}
	return ""
}

func isIDChar(c byte) bool { return isASCIIAlnum(c) || c == '_' }

// idLike reports whether a token was meant as an id, well-formed or not.
func idLike(tok string) bool {
	tok = strings.TrimPrefix(tok, "(")
	return len(tok) >= 4 && asciiLower(tok[:4]) == "clr-"
}

// trimIDPunct strips the punctuation an id is often typed with: "(CLR-42-001):".
func trimIDPunct(tok string) string {
	return strings.TrimRight(strings.TrimPrefix(tok, "("), ".,:;)!?")
}

// cutToken splits s at its first run of white space: the first token and the rest, trimmed.
func cutToken(s string) (tok, rest string) {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		return s, ""
	}
	return s[:end], strings.TrimSpace(s[end:])
}

// nearestSubcommand is the subcommand a lower-case word is a likely typo of ("resovle"), or "".
func nearestSubcommand(tok string) string {
	if len(tok) < 3 || len(tok) > 12 || asciiLower(tok) != tok {
		return ""
	}
	limit := 1
	if len(tok) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, sub := range []string{"list", "show", "stale", "stats", "followup", "resolve", "escalate", "abandon"} {
		if d := EditDistance(tok, sub); d < bestDist {
			best, bestDist = sub, d
		}
	}
	return best
}

// EditDistance counts the insertions, deletions, substitutions and swaps of adjacent bytes
// that turn a into b (optimal string alignment).
func EditDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// textBuilder joins lines into one multi-line text: runs of blank text lines (left behind by
// removed quotes, comments and fields) become one, code lines are kept as they are, and the
// whole is trimmed.
type textBuilder struct {
	lines []string
	blank bool // a blank line is owed before the next line
}

func (t *textBuilder) text(s string) {
	if strings.TrimSpace(s) == "" {
		t.blank = len(t.lines) > 0
		return
	}
	t.code(s)
}

func (t *textBuilder) code(s string) {
	if t.blank {
		t.lines = append(t.lines, "")
		t.blank = false
	}
	t.lines = append(t.lines, s)
}

// attribution reports whether line i is an e-mail client's "On …, X wrote:" line that
// introduces the quoted thread below it: part of the quote, not of the reply.
func attribution(lines []scannedLine, i int) bool {
	t := strings.TrimSpace(lines[i].text)
	if !strings.HasPrefix(t, "On ") || !strings.HasSuffix(t, "wrote:") {
		return false
	}
	for _, next := range lines[i+1:] {
		if strings.TrimSpace(next.text) == "" && next.kind == textLine {
			continue
		}
		return next.kind == quoteLine
	}
	return false
}

// String returns the collected lines, trimmed.
func (t *textBuilder) String() string { return strings.TrimSpace(strings.Join(t.lines, "\n")) }

// codeSpan wraps s in a Markdown code span that s's own backticks cannot close.
func codeSpan(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	ticks := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// shorten cuts a line for quoting in a refusal to at most 60 characters.
func shorten(s string) string {
	const limit = 60
	if len([]rune(s)) <= limit {
		return s
	}
	return string([]rune(s)[:limit-1]) + "…"
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isASCIIAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// isLetters reports whether s is made of ASCII letters only.
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// isWord reports whether s could be a subcommand: ASCII letters and hyphens.
func isWord(s string) bool {
	return s != "" && isLetters(strings.ReplaceAll(s, "-", ""))
}
