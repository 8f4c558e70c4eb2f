package repoconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxDocuments bounds the documents decode reads past the first, all of which must be empty.
const maxDocuments = 100

// lineBudget bounds the bytes firstFailingLine re-parses to find where a syntax error is.
const lineBudget = 1 << 20

// decode reads b into the root node of its one document: nil for an empty file, or one with
// only comments. A syntax error or a second document is a Problem.
func decode(b []byte) (*yaml.Node, []Problem) {
	root, extra, err := decodeDocuments(b)
	switch {
	case err != nil:
		return nil, []Problem{syntaxProblem(b, err)}
	case extra != nil:
		return nil, []Problem{{Line: extra.Line, Message: "a second YAML document starts here, and Clarify reads one: remove this --- and what follows, or merge it into the first"}}
	}
	return root, nil
}

// decodeDocuments returns the root node of the first document (nil if there is none), and
// the first later document that is not empty. A document made only of a "---" line is
// harmless and skipped.
func decodeDocuments(b []byte) (root, extra *yaml.Node, err error) {
	// yaml.v3 is a port of a C parser; should it ever panic on hostile bytes, that must be a
	// broken file like any other, never a crashed delivery.
	defer func() {
		if r := recover(); r != nil {
			root, extra, err = nil, nil, fmt.Errorf("yaml: the parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	for range maxDocuments {
		var next yaml.Node
		if err := dec.Decode(&next); err != nil {
			if errors.Is(err, io.EOF) {
				return root, nil, nil
			}
			return nil, nil, err
		}
		if len(next.Content) > 0 && !isNull(next.Content[0]) {
			return root, &next, nil
		}
	}
	return root, nil, nil
}

// yamlLine matches the line yaml.v3 puts in some of its errors.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// yamlMessage strips an error of yaml.v3's prefix and line, and returns the line apart.
func yamlMessage(err error) (msg string, line int) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return msg, line
}

// syntaxProblem turns a yaml.v3 syntax error into a Problem on the line where it is.
//
// yaml.v3 does not say where reliably: it reports the start of the enclosing block, counted
// from 0 for some errors and from 1 for others, and no line at all for an error on the first
// line. So the line is found again: it is the first line whose prefix of the file fails with
// the same error. (Requiring the same error skips a prefix that only fails because it cuts a
// valid multi-line string or list short.) The search starts a line before the one yaml.v3
// reports, which is never after the real one, so it costs a few parses, not one per line.
func syntaxProblem(b []byte, err error) Problem {
	msg, line := yamlMessage(err)
	if l := badCharLine(b); l > 0 && badCharMessage(msg) {
		line = l
	} else if l := firstFailingLine(b, msg, line-1); l > 0 {
		line = l
	}
	return Problem{Line: line, Message: "this is not valid YAML (" + msg + "): " + syntaxHint(msg, lineText(b, line))}
}

// firstFailingLine returns the first line from line from on that ends a prefix of b failing
// with msg, or 0 if none does within the budget.
func firstFailingLine(b []byte, msg string, from int) int {
	budget := lineBudget
	for i, end := range lineEnds(b) {
		if i+1 < from {
			continue
		}
		if budget -= end; budget < 0 {
			return 0
		}
		if _, _, err := decodeDocuments(b[:end]); err != nil {
			if m, _ := yamlMessage(err); m == msg {
				return i + 1
			}
		}
	}
	return 0
}

// badCharLine returns the line of the first character YAML does not allow in a file (a
// control character, or bytes that are not UTF-8), or 0. yaml.v3 reports these without a
// line, and finding it here is exact and cheaper than re-parsing.
func badCharLine(b []byte) int {
	i := 0
	if bytes.HasPrefix(b, []byte(bom)) {
		i = len(bom)
	}
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 || !yamlPrintable(r) {
			return lineAt(b, i)
		}
		i += size
	}
	return 0
}

const bom = "\uFEFF"

// badCharMessage reports whether a yaml.v3 error is about the characters of the file.
func badCharMessage(msg string) bool {
	for _, s := range []string{"control characters", "UTF-8", "utf-8", "Unicode", "unicode"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// yamlPrintable reports whether YAML allows r in a file (https://yaml.org/spec/1.2.2/#51-character-set).
func yamlPrintable(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// lineAt returns the line (1-based) that byte off of b is on.
func lineAt(b []byte, off int) int {
	for i, end := range lineEnds(b) {
		if off < end {
			return i + 1
		}
	}
	return len(lineEnds(b))
}

// lineText returns line n (1-based) of b without its line break, or "".
func lineText(b []byte, n int) string {
	ends := lineEnds(b)
	if n < 1 || n > len(ends) {
		return ""
	}
	start := 0
	if n > 1 {
		start = ends[n-2]
	}
	return strings.TrimRight(string(b[start:ends[n-1]]), "\r\n\u0085\u2028\u2029")
}

// lineEnds returns where each line of b ends, after its line break. The breaks are YAML's
// (https://yaml.org/spec/1.1/#id868856, which yaml.v3 counts lines by): CR LF, CR, LF, and
// the Unicode NEL, LS and PS.
func lineEnds(b []byte) []int {
	var ends []int
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		switch r {
		case '\r':
			if i < len(b) && b[i] == '\n' {
				i++
			}
		case '\n', '\u0085', '\u2028', '\u2029':
		default:
			continue
		}
		ends = append(ends, i)
	}
	if len(ends) == 0 || ends[len(ends)-1] < len(b) {
		ends = append(ends, len(b))
	}
	return ends
}

// syntaxHint says what to change for the common YAML mistakes of a hand-written config.
func syntaxHint(msg, text string) string {
	switch {
	case strings.Contains(text, "\t"):
		return "indent with spaces, YAML does not allow tabs"
	case strings.Contains(msg, "cannot start any token") && strings.ContainsAny(text, "@`"):
		return `put a value that starts with @ or a backquote in quotes, like "@octo/architects"`
	case strings.Contains(msg, "mapping values are not allowed"):
		return `put a value that contains ": " in quotes, or indent this line under its key`
	case strings.Contains(msg, "expected ',' or ']'"), strings.Contains(msg, "expected ',' or '}'"):
		return "close the [ or { opened on this line and separate the entries with commas"
	case strings.Contains(msg, "end of stream"):
		return "close the quote opened on this line"
	case strings.Contains(msg, "unknown anchor"):
		return `anchors and aliases are not supported, so write the value out (in quotes if it starts with *, like "*")`
	case badCharMessage(msg):
		return "the file must be UTF-8 text, so remove the control character or stray byte on this line"
	}
	return "check this line's indentation (keys of one level line up under each other) and its quotes"
}
