package render

import (
	"fmt"
	"strings"
)

// StatusMarker marks the app's status comment, the one comment per issue that holds the ledger.
const StatusMarker = "<!-- clarify:status -->"

// MaxCommentBytes is the most any rendered message may take; GitHub refuses a comment
// body over 65,536 characters, and bytes bound characters from above.
const MaxCommentBytes = 60_000

// IsStatus reports whether body carries StatusMarker. Anyone can type the marker into a
// comment of their own, so the caller must also check that the app wrote the comment.
func IsStatus(body string) bool { return strings.Contains(body, StatusMarker) }

// msgOpen begins every message marker.
const msgOpen = "<!-- clarify:msg "

// IsOwnComment reports whether body is one the app writes in an issue: its status comment
// or a message with a marker. A token's account may be shared (every workflow of a
// repository comments as github-actions[bot]), so the markers, not the login, tell the
// app's comments apart; as with IsStatus, the caller must still check the author.
func IsOwnComment(body string) bool { return IsStatus(body) || strings.Contains(body, msgOpen) }

// Marker returns the hidden "<!-- clarify:msg KEY -->" line that makes posting a message
// idempotent: a retry that finds it in the issue does not post again.
//
// Keys are app-made, but a key is still reduced to [A-Za-z0-9:_.-] so that it can never
// end the comment early; any other byte is percent-encoded ("%" too), which keeps two
// different keys from ever sharing a marker.
func Marker(key string) string {
	var b strings.Builder
	b.WriteString(msgOpen)
	if key == "" {
		b.WriteString("%")
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if isASCIILetter(c) || isDigit(c) || strings.IndexByte(":_.-", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	b.WriteString(" -->")
	return b.String()
}

// HasMarker reports whether body carries Marker(key). As with IsStatus, only the app's
// own comments should be searched: a marker in someone else's comment proves nothing.
func HasMarker(body, key string) bool { return strings.Contains(body, Marker(key)) }

// HasMarkerPrefix reports whether body carries a marker whose key starts with prefix
// (itself made only of marker-safe characters), e.g. any round comment with "round:".
func HasMarkerPrefix(body, prefix string) bool {
	m := Marker(prefix)
	return strings.Contains(body, strings.TrimSuffix(m, " -->"))
}
