package clarify

import (
	"fmt"
	"strings"
	"unicode"
)

// The examples that refusals show, so that every "what to type instead" is concrete.
const (
	exampleID  = "CLR-42-001"
	exampleAsk = "/clarify architect Which database should the cache use?"
)

// subcommands are the words that may follow /clarify, in the order a refusal lists them.
var subcommands = []string{"list", "show", "stale", "stats", "followup", "resolve", "escalate", "abandon", "supersede", "undo"}

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
	at := commandLines(lines)
	switch {
	case len(at) == 0:
		return plainReply(lines), nil
	case len(at) > 1:
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
	return parseCommand(lines, at[0])
}

// commandLines returns the indexes of the lines that hold a command.
func commandLines(lines []scannedLine) []int {
	var at []int
	for i, l := range lines {
		if l.kind != textLine {
			continue
		}
		if _, _, ok := commandWord(l.text); ok {
			at = append(at, i)
		}
	}
	return at
}

// parseCommand parses the command on lines[i], with the lines after it as its body.
func parseCommand(lines []scannedLine, i int) (Command, error) {
	word, rest, _ := commandWord(lines[i].text)
	p := commandParser{line: strings.TrimSpace(lines[i].text), rest: strings.TrimSpace(rest), body: lines[i+1:]}
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

// namingID are the subcommands that name one clarification, with the example a refusal
// of each shows.
var namingID = map[string]struct {
	kind    CommandKind
	example string
}{
	"show":      {CmdShow, "/clarify show " + exampleID},
	"abandon":   {CmdAbandon, "/clarify abandon " + exampleID},
	"escalate":  {CmdEscalate, "/clarify escalate " + exampleID + " We keep going round in circles"},
	"undo":      {CmdUndo, "/clarify undo " + exampleID},
	"supersede": {CmdSupersede, "/clarify supersede " + exampleID + " One global cache"},
	"followup":  {CmdFollowup, "/clarify followup " + exampleID + " Does that hold for cached reads too?"},
	"follow-up": {CmdFollowup, "/clarify followup " + exampleID + " Does that hold for cached reads too?"},
}

func (p commandParser) clarify() (Command, error) {
	tok, after := cutToken(p.rest)
	if sub, ok := namingID[asciiLower(tok)]; ok {
		name := asciiLower(tok)
		if sub.kind == CmdFollowup {
			name = "followup"
		}
		return p.withID(sub.kind, name, after, sub.example)
	}
	switch asciiLower(tok) {
	case "", "list":
		return Command{Kind: CmdList}, nil
	case "stale":
		return Command{Kind: CmdStale}, nil
	case "stats":
		return Command{Kind: CmdStats}, nil
	case "resolve":
		id, rest, err := p.optionalID(after, "/clarify resolve "+exampleID+" Store all timestamps in UTC")
		if err != nil {
			return Command{}, err
		}
		return Command{Kind: CmdResolve, ID: id, Text: p.text(rest)}, nil
	}
	if strings.HasPrefix(tok, "@") || strings.HasPrefix(tok, "--") || nonBlockingFlag(tok) {
		return p.ask()
	}
	if _, ok := bareTarget(tok); !ok {
		return Command{}, p.noTarget(tok)
	}
	if p.text(after) == "" {
		return Command{}, p.notASubcommand(tok)
	}
	// Perhaps a role, perhaps a mistyped subcommand or a question without its target: only
	// the policy can tell, so Apply decides (applier.refuseBareTarget).
	return p.ask()
}

// withID parses a subcommand that must name a clarification: its id, then what it says (a
// follow-up's question, an escalation's or abandonment's reason; show says nothing more).
func (p commandParser) withID(kind CommandKind, sub, after, example string) (Command, error) {
	id, rest, err := p.requiredID(after, sub, example)
	if err != nil {
		return Command{}, err
	}
	c := Command{Kind: kind, ID: id}
	switch kind {
	case CmdShow:
		return c, nil
	case CmdFollowup:
		return p.question(c, rest)
	}
	c.Text = p.text(rest)
	return c, nil
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
	if strings.HasPrefix(tok, "@") {
		target, ok := parseTarget(tok)
		if !ok {
			return Command{}, p.fail(codeSpan(tok)+" is not a target: a login or role (letters, digits and single hyphens, at most 39) or `@org/team`.",
				"`"+exampleAsk+"`, or `/clarify @my-org/backend Which database should the cache use?`")
		}
		c.Target = target
	} else if name, ok := bareTarget(tok); ok {
		c.Target, c.BareTarget = name, true
	} else {
		return Command{}, p.noTarget(tok)
	}
	if tok, rest := cutToken(after); nonBlockingFlag(tok) {
		c.NonBlocking = true
		after = rest
	} else if looksLikeFlag(tok) {
		return Command{}, p.unknownFlag(tok)
	}
	return p.question(c, after)
}

// parseTarget reads "@name" or "@org/team" and returns it without the @. A trailing ":" or
// "," is punctuation ("/clarify @architect: which…").
func parseTarget(tok string) (string, bool) {
	name := strings.TrimRight(strings.TrimPrefix(tok, "@"), ":,")
	if org, team, ok := strings.Cut(name, "/"); ok {
		return name, LoginProblem(org) == "" && TeamSlugProblem(team) == ""
	}
	return name, LoginProblem(name) == ""
}

// bareTarget reads a target typed without @ ("architect", "architect:"), which can only be a
// role: the name of a login, since roles follow the login rule.
func bareTarget(tok string) (string, bool) {
	name := strings.TrimRight(tok, ":,")
	return name, LoginProblem(name) == ""
}

// noTarget refuses an ask whose first word can be no target at all ("What's", "acme/web").
func (p commandParser) noTarget(tok string) error {
	if org, team, ok := strings.Cut(strings.TrimRight(tok, ":,"), "/"); ok && LoginProblem(org) == "" && TeamSlugProblem(team) == "" {
		return p.fail("a team is addressed with @, so that GitHub tells its members.",
			codeSpan("/clarify @"+org+"/"+team+" Which database should the cache use?"))
	}
	return p.fail("an ask needs a target right after `/clarify`: a configured role by its name, a person as `@login` or a team as `@org/team`.",
		"`"+exampleAsk+"`, or `/clarify @alice Which database should the cache use?`")
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

func (p commandParser) unknownFlag(tok string) error {
	return p.fail(codeSpan(tok)+" is not an option of `/clarify`; the only one is `--non-blocking`.",
		"`/clarify architect --non-blocking Which database should the cache use?`")
}

// notASubcommand refuses /clarify followed by one word that is no subcommand, with nothing
// after it. Whether it was a mistyped subcommand or an ask without its question is a guess,
// so the refusal leads with the likelier one and shows both.
func (p commandParser) notASubcommand(tok string) error {
	ask := "to ask, put the question after the role, `@login` or `@org/team`: `" + exampleAsk + "`"
	subs := "the subcommands are `" + strings.Join(subcommands, "`, `") + "`, as in `/clarify show " + exampleID + "`"
	problem := codeSpan(tok) + " is not a `/clarify` subcommand, and no question follows it."
	if near := nearestSubcommand(tok); near != "" {
		problem = codeSpan(tok) + " is not a `/clarify` subcommand. Did you mean `" + near + "`?"
	}
	return p.fail(problem, subs+"; "+ask+".")
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
	return Nearest(tok, subcommands, limit)
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

// HasCommand reports whether a comment holds a command, or something meant as one that
// deserves a refusal: what makes an issue worth a run when nothing else does.
func HasCommand(body string) bool {
	cmd, err := Parse(body)
	return err != nil || cmd.Kind != CmdNone
}
