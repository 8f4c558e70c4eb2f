package render

import (
	"fmt"
	"strings"
)

// StatusMarker marks the app's status comment, the one comment per issue that holds the
// ledger; the app writes it sealed (seal.go).
const StatusMarker = "<!-- clarify:status -->"

// MaxCommentBytes is the most any rendered message may take; GitHub refuses a comment
// body over 65,536 characters, and bytes bound characters from above.
const MaxCommentBytes = 60_000

// IsStatus reports whether body carries StatusMarker, plain or sealed: whether it looks
// like a status comment. Anyone can type the marker into a comment of their own, so only
// IssueKeys.Sealed tells the app's.
func IsStatus(body string) bool { return strings.Contains(body, markOpen(StatusMarker)) }

// msgOpen begins every message marker.
const msgOpen = "<!-- clarify:msg "

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

// HasMarker reports whether body carries Marker(key), plain or sealed. It proves nothing of
// who wrote it: only text the app vouches for otherwise (the head its ledger holds the
// digest of) should be searched so; IssueKeys.Sealed tells the app's markers anywhere.
func HasMarker(body, key string) bool { return strings.Contains(body, markOpen(Marker(key))) }

// HasMarkerPrefix reports whether body carries a marker whose key starts with prefix
// (itself made only of marker-safe characters), e.g. any round comment with "round:".
func HasMarkerPrefix(body, prefix string) bool {
	m := Marker(prefix)
	return strings.Contains(body, strings.TrimSuffix(m, " -->"))
}
