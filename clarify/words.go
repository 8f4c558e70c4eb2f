package clarify

import (
	"strings"
	"time"
)

// The words every package that talks to people shares: which known word a typo meant, and
// how a duration is written. They live here, the lowest package of the module, so that the
// parser, the repository config and the app's settings say them the same way.

// maxTypoLen is the longest word taken for a typo: longer ones are no mistyped key or
// subcommand, and skipping them keeps a suggestion cheap on hostile input.
const maxTypoLen = 64

// Nearest returns the choice that s is likely a typo of, or "": the closest by
// EditDistance, ignoring case and "-" versus "_", at most maxEdits away and fewer edits
// than either word has letters (so a short word is no typo of everything). The first of
// equally close choices wins.
func Nearest(s string, choices []string, maxEdits int) string {
	if len(s) > maxTypoLen {
		return ""
	}
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	best, bestDist := "", maxEdits+1
	for _, c := range choices {
		if len(c) > maxTypoLen {
			continue
		}
		if d := EditDistance(norm(s), norm(c)); d < bestDist && d < len(s) && d < len(c) {
			best, bestDist = c, d
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

// FormatDuration writes d as people write it in a file or a setting: 2m rather than
// 2m0s, 1h rather than 1h0m0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
