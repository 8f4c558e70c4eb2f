package clarify

import (
	"strings"
	"unicode"
)

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

// String returns the collected lines, trimmed.
func (t *textBuilder) String() string { return strings.TrimSpace(strings.Join(t.lines, "\n")) }

// cutToken splits s at its first run of white space: the first token and the rest, trimmed.
func cutToken(s string) (tok, rest string) {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		return s, ""
	}
	return s[:end], strings.TrimSpace(s[end:])
}

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

// asciiLower lower-cases ASCII letters only: commands and ids are ASCII, and a Unicode case
// mapping could change a byte length that the parser slices by. It allocates only when there
// is something to change.
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
