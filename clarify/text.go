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
