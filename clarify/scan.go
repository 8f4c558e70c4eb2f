package clarify

import "strings"

// lineKind says what a line of a comment is, as far as commands are concerned. Only text
// lines can hold a command: docs/agents.md takes commands from neither code blocks nor quotes
// (an e-mail reply quotes the whole thread, commands included).
type lineKind uint8

const (
	textLine  lineKind = iota // ordinary Markdown; blank lines are text lines with no text
	codeLine                  // a fence line, or a line inside a fenced or indented code block
	quoteLine                 // a block quote line: its first non-space character is '>'
)

// scannedLine is one logical line of a comment body. Code lines are kept verbatim; text and
// quote lines have their HTML comments removed, and a comment spanning lines joins the text
// before it and the text after it into one logical line, as if the comment were not there.
type scannedLine struct {
	kind lineKind
	text string
}

// blank reports whether the line has nothing but white space.
func (l scannedLine) blank() bool { return strings.TrimSpace(l.text) == "" }

// scanBody splits a comment body into logical lines and tells code, quote and text apart.
// It is the one scanner every parse goes through, so that what counts as a command is
// decided in one place. It follows CommonMark as far as commands need, no further: fenced
// code (``` or ~~~, closed by a fence of the same character at least as long; an unclosed
// fence runs to the end), indented code (four columns, only where it cannot continue a
// paragraph), block quotes line by line, and HTML comments (which may span lines; an
// unclosed one runs to the end, as GitHub renders it).
func scanBody(body string) []scannedLine {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	raw := strings.Split(body, "\n")
	out := make([]scannedLine, 0, len(raw))
	var fence codeFence // the open fence, if any
	paragraph := false  // the previous line can be continued, so indentation is not code
	for i := 0; i < len(raw); i++ {
		l := raw[i]
		if fence.open() {
			out = append(out, scannedLine{codeLine, l})
			if fence.closedBy(l) {
				fence = codeFence{}
			}
			continue
		}
		if f, ok := openingFence(l); ok {
			fence = f
			out = append(out, scannedLine{codeLine, l})
			paragraph = false
			continue
		}
		if !paragraph && strings.TrimSpace(l) != "" && indentWidth(l) >= 4 {
			// Inside indented code an HTML comment is literal text, so this check comes
			// before comments are removed.
			out = append(out, scannedLine{codeLine, l})
			continue
		}
		logical, last, hadComment := removeHTMLComments(raw, i)
		i = last
		if strings.TrimSpace(logical) == "" {
			paragraph = false
			if hadComment {
				continue // a line that was only a comment says nothing
			}
			out = append(out, scannedLine{textLine, ""})
			continue
		}
		kind := textLine
		if strings.HasPrefix(strings.TrimLeft(logical, " \t"), ">") {
			kind = quoteLine
		}
		out = append(out, scannedLine{kind, logical})
		paragraph = true
	}
	return out
}

// codeFence is an open fenced code block: its character and the length of its opening run.
type codeFence struct {
	char byte
	size int
}

func (f codeFence) open() bool { return f.size > 0 }

// closedBy reports whether l closes the fence: at most three columns of indentation, a run of
// the fence's character at least as long as the opening one, and nothing after it but spaces.
func (f codeFence) closedBy(l string) bool {
	if indentWidth(l) >= 4 {
		return false
	}
	rest := strings.TrimLeft(l, " \t")
	n := runLength(rest, f.char)
	return n >= f.size && strings.TrimRight(rest[n:], " \t") == ""
}

// openingFence reports whether l opens a fenced code block. A backtick fence's info string
// cannot hold a backtick (that line is inline code instead); a tilde fence's can.
func openingFence(l string) (codeFence, bool) {
	if indentWidth(l) >= 4 {
		return codeFence{}, false
	}
	rest := strings.TrimLeft(l, " \t")
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return codeFence{}, false
	}
	c := rest[0]
	n := runLength(rest, c)
	if n < 3 || (c == '`' && strings.IndexByte(rest[n:], '`') >= 0) {
		return codeFence{}, false
	}
	return codeFence{char: c, size: n}, true
}

// runLength counts the leading run of c in s.
func runLength(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// indentWidth is the column of l's first non-blank character, tabs stopping every four columns.
func indentWidth(l string) int {
	w := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// removeHTMLComments removes the HTML comments from raw[i], following a comment that spans
// lines to the line that closes it. It returns the logical line left (the text before the
// comment joined with the text after it), the index of the last raw line consumed, and whether
// a comment was removed. A "<!--" inside an inline code span is literal text, not a comment.
func removeHTMLComments(raw []string, i int) (string, int, bool) {
	line := raw[i]
	start := htmlCommentStart(line)
	if start < 0 {
		return line, i, false
	}
	var b strings.Builder
	for start >= 0 {
		b.WriteString(line[:start])
		// The closing "-->" may overlap the opening "<!--": "<!-->" is a whole (empty)
		// comment to GitHub's renderer, which looks for the end from there.
		rest := line[start+2:]
		for {
			if end := strings.Index(rest, "-->"); end >= 0 {
				line = rest[end+3:]
				break
			}
			if i+1 >= len(raw) {
				return b.String(), i, true // unclosed: the comment runs to the end
			}
			i++
			rest = raw[i]
		}
		start = htmlCommentStart(line)
	}
	b.WriteString(line)
	return b.String(), i, true
}

// htmlCommentStart is the index of the first "<!--" in l outside inline code spans, or -1.
// A run of n backticks opens a code span closed by the next run of exactly n backticks on
// the line; a run with no such closer is literal.
func htmlCommentStart(l string) int {
	if !strings.Contains(l, "<!--") {
		return -1
	}
	// unclosed[n] records that no run of n backticks closes a span from here on, so that a
	// line full of unmatched backticks is scanned in linear rather than quadratic time.
	var unclosed map[int]bool
	for i := 0; i < len(l); {
		switch {
		case strings.HasPrefix(l[i:], "<!--"):
			return i
		case l[i] == '`':
			n := runLength(l[i:], '`')
			if !unclosed[n] {
				if end := closingBackticks(l[i+n:], n); end >= 0 {
					i += n + end + n
					continue
				}
				if unclosed == nil {
					unclosed = make(map[int]bool)
				}
				unclosed[n] = true
			}
			i += n
		default:
			i++
		}
	}
	return -1
}

// closingBackticks is the index in s of the first run of exactly n backticks, or -1.
func closingBackticks(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			j := strings.IndexByte(s[i:], '`')
			if j < 0 {
				return -1
			}
			i += j
			continue
		}
		m := runLength(s[i:], '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}
