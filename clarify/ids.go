package clarify

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// FormatID returns the id of the seq-th clarification of an issue, CLR-42-001.
func FormatID(issue, seq int) string { return fmt.Sprintf("CLR-%d-%03d", issue, seq) }

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
	return FormatID(in, sn), true
}

// idNumber reads a positive decimal number of ASCII digits (leading zeros allowed), small
// enough that no real issue or sequence number is refused and no overflow is possible.
func idNumber(s string) (int, bool) {
	if s == "" || digitsEnd(s, 0) != len(s) {
		return 0, false
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
		if end := idEnd(s, i+4); end >= 0 {
			if id, ok := NormalizeID(s[i:end]); ok {
				return id
			}
		}
	}
	return ""
}

// idEnd returns where the id whose "CLR-" ends at i ends: after "<digits>-<digits>" that no
// word character follows (so "CLR-4-2x" is no id), or -1.
func idEnd(s string, i int) int {
	j := digitsEnd(s, i)
	if j == i || j >= len(s) || s[j] != '-' {
		return -1
	}
	k := digitsEnd(s, j+1)
	if k == j+1 || (k < len(s) && isIDChar(s[k])) {
		return -1
	}
	return k
}

// digitsEnd returns the end of the run of ASCII digits that starts at i.
func digitsEnd(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
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

// CompareIDs orders clarification ids by issue and sequence number, so CLR-42-1000 comes after
// CLR-42-999; ids that are not well formed fall back to plain string order after those that are.
func CompareIDs(a, b string) int {
	ia, sa, oka := splitID(a)
	ib, sb, okb := splitID(b)
	switch {
	case oka && okb:
		return cmp.Or(cmp.Compare(ia, ib), cmp.Compare(sa, sb), strings.Compare(a, b))
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// splitID reads the numbers of an id as FormatID writes it.
func splitID(id string) (issue, seq int, ok bool) {
	if !strings.HasPrefix(id, "CLR-") {
		return 0, 0, false
	}
	is, ss, found := strings.Cut(id[len("CLR-"):], "-")
	if !found {
		return 0, 0, false
	}
	issue, ok1 := idNumber(is)
	seq, ok2 := idNumber(ss)
	return issue, seq, ok1 && ok2
}
