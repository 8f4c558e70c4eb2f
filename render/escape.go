package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// zwsp is the zero-width space put after "@" and "#" so GitHub neither mentions nor
// links: the reader sees the same text, GitHub's autolinker sees no login or number.
const zwsp = "\u200b"

// truncated ends any user text render had to cut.
const truncated = "… (truncated)"

// Inline returns user text made safe for one line of Markdown or one table cell.
func Inline(s string) string { return inline(s, 0) }

// Quote returns user text made safe as a Markdown block quote, "> " before every line.
func Quote(s string) string { return quote(s, 0) }

// inline is Inline capped at limit runes of user text (0: no cap). Newlines become spaces,
// and everything Markdown would act on in a line is backslash-escaped, so the text shows
// as typed and a table row keeps its columns.
func inline(s string, limit int) string {
	s, long := head(s, limit)
	s = strings.TrimSpace(strings.NewReplacer("\n", " ", "\t", " ").Replace(clean(s)))
	s = clip(s, limit, long)
	var b strings.Builder
	escapeLine(&b, s, true)
	return b.String()
}

// cell is inline for a table cell: an empty value shows as a dash, not as a gap.
func cell(s string, limit int) string {
	if v := inline(s, limit); v != "" {
		return v
	}
	return "—"
}

// quote is Quote capped at limit runes of user text (0: no cap). The user's own Markdown
// (emphasis, lists, code) is kept; it cannot leave the quote, because every line
// carries the "> " prefix and a block quote closes every block opened inside it.
func quote(s string, limit int) string {
	s, long := head(s, limit)
	s = strings.Trim(clean(s), "\n")
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	s = clip(s, limit, long)
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if strings.TrimSpace(line) == "" {
			b.WriteByte('>')
			continue
		}
		b.WriteString("> ")
		escapeLine(&b, line, false)
	}
	return b.String()
}

// clean normalises user text before it is escaped: invalid UTF-8 is replaced, every line
// break GitHub or a browser might honour becomes "\n", other control characters are
// dropped, and so are the bidirectional overrides and isolates, which could make a line
// of ours read in a different order than it is written.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
			if strings.HasPrefix(s[i+n:], "\n") {
				n++
			}
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\u2028' || r == '\u2029' || r == '\u0085':
			b.WriteByte('\n')
		case unicode.IsControl(r), isBidiControl(r):
			// dropped
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

func isBidiControl(r rune) bool {
	return (r >= '\u202A' && r <= '\u202E') || (r >= '\u2066' && r <= '\u2069')
}

// head cuts raw text to twice the cap before it is cleaned, so a huge field costs no
// more than a short one; clip makes the exact cut afterwards. It reports whether it cut.
func head(s string, limit int) (string, bool) {
	if limit <= 0 || len(s) <= 2*limit {
		return s, false
	}
	n := 0
	for i := range s {
		if n == 2*limit {
			return s[:i], true
		}
		n++
	}
	return s, false
}

// clip keeps the first limit runes of s (all of it when limit is 0) and says when it
// cut, or when head already did (cut).
func clip(s string, limit int, cut bool) string {
	if limit <= 0 || utf8.RuneCountInString(s) <= limit {
		if cut {
			return s + " " + truncated
		}
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			return strings.TrimRightFunc(s[:i], unicode.IsSpace) + " " + truncated
		}
		n++
	}
	return s
}

// inlineSpecial are the ASCII characters that are backslash-escaped in one-line user text:
// "|" would split a table cell, "`" would open a code span that swallows our own text,
// the rest would turn text into emphasis, links or images that run into ours.
const inlineSpecial = "\\`|*_[]~"

// escapeLine writes one line of user text (no newline in it) to b, neutralised:
//   - "<" and ">" become entities, so no HTML comment (ours included) can open or close;
//   - "&" before a name or "#" becomes "&amp;", so a typed entity shows as typed;
//   - "@login" and "@org/team" get a zero-width space after "@": no mention;
//   - "#123" and "GH-123" get one after "#" or "-": no cross-reference;
//   - with inline set, the inlineSpecial characters are backslash-escaped.
func escapeLine(b *strings.Builder, s string, inline bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if out, used := neutralise(s[i:], r, n); used > 0 {
			b.WriteString(out)
			i += used
			continue
		}
		if inline && r < utf8.RuneSelf && strings.IndexByte(inlineSpecial, byte(r)) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		i += n
	}
}

// neutralise returns what the rune r (n bytes) at the start of s is written as when it
// could start markup, a mention or a reference, and how many bytes of s that replaces; 0
// when r is harmless.
func neutralise(s string, r rune, n int) (string, int) {
	var next byte
	if len(s) > n {
		next = s[n]
	}
	switch {
	case r == '<':
		return "&lt;", n
	case r == '>':
		return "&gt;", n
	case r == '&' && (isASCIILetter(next) || next == '#'):
		return "&amp;", n
	case r == '@' && isLoginByte(next):
		return "@" + zwsp, n
	case r == '#' && isDigit(next):
		return "#" + zwsp, n
	case isGHRef(s):
		// Even inside a word ("SIGH-1"): whether GitHub sees a word boundary
		// before a non-ASCII letter is not worth betting on.
		return s[:3] + zwsp, 3
	}
	return "", 0
}

// isGHRef reports whether s starts with "GH-" and a digit, in any case: a cross-reference.
func isGHRef(s string) bool {
	return len(s) >= 4 && strings.EqualFold(s[:3], "gh-") && isDigit(s[3])
}

// prose makes app-written text (a refusal's Problem and Try) safe while keeping its code
// spans verbatim, so a suggested command can be copied and typed as is. Outside code
// spans it is escaped like a quoted line (it may echo what a user typed); inside them
// GitHub neither mentions nor links, so only the HTML comment delimiters are broken up.
func prose(s string) string {
	s = strings.TrimSpace(strings.NewReplacer("\n", " ", "\t", " ").Replace(clean(s)))
	var b strings.Builder
	for _, sp := range splitCode(s) {
		if sp.code {
			b.WriteString(breakComments(sp.text))
		} else {
			escapeLine(&b, sp.text, false)
		}
	}
	return b.String()
}

// span is a piece of app text: a code span (with its backticks) or text around one.
type span struct {
	text string
	code bool
}

// splitCode finds the code spans of one line the way CommonMark does: a run of n
// backticks opens a span that the next run of exactly n backticks closes; a run with no
// match, or one escaped by a backslash, is literal text. Getting this right matters: text
// wrongly taken for code would keep its @mentions live.
func splitCode(s string) []span {
	var out []span
	start := 0 // start of the pending text span
	for i := 0; i < len(s); {
		if s[i] == '\\' {
			i += 2 // a backslash escapes the next character outside code spans
			continue
		}
		if s[i] != '`' {
			i++
			continue
		}
		open := runLen(s, i)
		closing := -1
		for j := i + open; j < len(s); {
			if s[j] != '`' {
				j++
				continue
			}
			if m := runLen(s, j); m == open {
				closing = j
				break
			} else {
				j += m
			}
		}
		if closing < 0 {
			i += open
			continue
		}
		if start < i {
			out = append(out, span{text: s[start:i]})
		}
		end := closing + open
		out = append(out, span{text: s[i:end], code: true})
		i, start = end, end
	}
	if start < len(s) {
		out = append(out, span{text: s[start:]})
	}
	return out
}

func runLen(s string, i int) int {
	j := i
	for j < len(s) && s[j] == '`' {
		j++
	}
	return j - i
}

// breakComments puts a zero-width space inside every HTML comment delimiter: between
// "<" and "!" (so no "<!--" opens) and before a ">" that follows "--" or "--!" (so none
// closes). It works on the output as it grows, so overlapping delimiters ("<!--->") are
// caught too, and leaves a command's own "--non-blocking" alone. It is only used inside
// code spans, where an entity would show literally.
func breakComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		out := b.String()
		switch {
		case s[i] == '!' && strings.HasSuffix(out, "<"),
			s[i] == '>' && (strings.HasSuffix(out, "--") || strings.HasSuffix(out, "--!")):
			b.WriteString(zwsp)
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }

// isLoginByte reports whether c can follow "@" in a GitHub mention (a login or org/team).
func isLoginByte(c byte) bool { return isASCIILetter(c) || isDigit(c) || c == '-' || c == '_' }
