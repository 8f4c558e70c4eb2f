// Package ghexpr evaluates GitHub Actions expressions, the language of a workflow's `if:`
// and `${{ }}`, with GitHub's documented rules, so that tests can check what a workflow
// does for a given event without running it on GitHub: case-insensitive string
// comparison, loose equality, && and || returning an operand, property paths with object
// filters (labels.*.name), missing properties as null, and the functions contains,
// startsWith, endsWith, format, join, toJSON, fromJSON and the status functions.
// https://docs.github.com/en/actions/reference/workflows-and-actions/expressions
package ghexpr

import (
	"fmt"
	"strconv"
	"strings"
)

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tokEOF tokKind = iota
	tokNumber
	tokString
	tokIdent
	tokOp // ( ) [ ] . , ! == != < <= > >= && || *
)

type token struct {
	kind tokKind
	text string  // the identifier, the operator, or the string's value
	num  float64 // a number's value
	pos  int
}

// lex splits an expression into tokens.
func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		if strings.IndexByte(" \t\n\r", src[i]) >= 0 {
			i++
			continue
		}
		t, next, err := lexToken(src, i, startsOperand(toks))
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		i = next
	}
	return append(toks, token{kind: tokEOF, pos: len(src)}), nil
}

// lexToken reads the token at src[i]; operand says a sign there may begin a number.
func lexToken(src string, i int, operand bool) (token, int, error) {
	c := src[i]
	switch {
	case c == '\'':
		s, n, err := lexString(src, i)
		return token{kind: tokString, text: s, pos: i}, n, err
	case isDigit(c) || (c == '-' || c == '+' || c == '.') && operand && i+1 < len(src) && isDigit(src[i+1]):
		j := numberEnd(src, i+1)
		f, err := parseNumber(src[i:j])
		if err != nil {
			return token{}, 0, fmt.Errorf("ghexpr: at %d: %q is not a number", i, src[i:j])
		}
		return token{kind: tokNumber, num: f, text: src[i:j], pos: i}, j, nil
	case isIdentStart(c):
		j := i + 1
		for j < len(src) && (isIdentByte(src[j]) || src[j] == '-') {
			j++
		}
		return token{kind: tokIdent, text: src[i:j], pos: i}, j, nil
	}
	op := lexOp(src[i:])
	if op == "" {
		return token{}, 0, fmt.Errorf("ghexpr: at %d: unexpected %q", i, src[i:i+1])
	}
	return token{kind: tokOp, text: op, pos: i}, i + len(op), nil
}

// numberEnd is where the number that goes on at src[j] ends: digits, letters (0x, e),
// dots, and a sign right after an exponent's e.
func numberEnd(src string, j int) int {
	for j < len(src) {
		c := src[j]
		exponentSign := (c == '-' || c == '+') && (src[j-1] == 'e' || src[j-1] == 'E')
		if !isIdentByte(c) && c != '.' && !exponentSign {
			return j
		}
		j++
	}
	return j
}

// startsOperand says whether a sign or a dot here begins a number: not after a value or a
// dereference (a.b, a[0].c).
func startsOperand(toks []token) bool {
	if len(toks) == 0 {
		return true
	}
	last := toks[len(toks)-1]
	return last.kind == tokOp && last.text != ")" && last.text != "]" && last.text != "." && last.text != "*"
}

// lexString reads a single-quoted string starting at src[i]; ” stands for one quote.
func lexString(src string, i int) (string, int, error) {
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		if src[j] != '\'' {
			b.WriteByte(src[j])
			continue
		}
		if j+1 < len(src) && src[j+1] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return b.String(), j + 1, nil
	}
	return "", 0, fmt.Errorf("ghexpr: at %d: unterminated string", i)
}

func lexOp(s string) string {
	for _, op := range []string{"==", "!=", "<=", ">=", "&&", "||"} {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	if strings.ContainsRune("()[].,!<>*", rune(s[0])) {
		return s[:1]
	}
	return ""
}

// parseNumber reads a number literal: decimal, with an exponent, or hexadecimal (0x).
func parseNumber(s string) (float64, error) {
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 64)
		return float64(n), err
	}
	return strconv.ParseFloat(s, 64)
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentByte(c byte) bool  { return isIdentStart(c) || isDigit(c) }
