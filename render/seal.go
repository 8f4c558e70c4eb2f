package render

import "strings"

// A marker (the status marker, or a message's Marker(key)) tells which of the app's
// comments is which: a post whose marker is already in the issue is not made again, and
// the comment with the status marker holds the ledger. A token's account may be shared
// (every workflow of a repository writes as github-actions[bot]), so a marker that makes
// the app skip a post or take a comment for its own is sealed: signed under the issue's
// key, "<!-- clarify:msg KEY SIG -->", "<!-- clarify:status SIG -->". SIG is base64url of
// the MAC of the plain marker; a marker typed by anyone else, or pasted from another
// issue, does not verify.
const markLabel = "clarify marker v1\x00"

// Seal returns body with its last plain mark (StatusMarker, or a Marker(key)) sealed under
// the issue's signing key. The app's messages end with their marker, after any user text,
// so the last one is the app's. A body that already carries mark sealed, or lacks it, is
// returned as it is.
func (k IssueKeys) Seal(body, mark string) string {
	i := strings.LastIndex(body, mark)
	if i < 0 || k.Signing() == nil || k.Sealed(body, mark) {
		return body
	}
	return body[:i] + k.sealed(mark) + body[i+len(mark):]
}

// sealed is mark sealed under the issue's signing key, as Seal writes it.
func (k IssueKeys) sealed(mark string) string {
	sig := b64url.EncodeToString(sign(k.Signing(), []byte(markLabel+mark)))
	return markOpen(mark) + sig + " -->"
}

// markOpen is a plain marker without its end, "<!-- clarify:msg KEY ": what the plain and
// the sealed forms of the marker both begin with.
func markOpen(mark string) string { return strings.TrimSuffix(mark, "-->") }

// Sealed reports whether body carries mark sealed under one of the issue's keys (the
// current one, or one before a rotation).
func (k IssueKeys) Sealed(body, mark string) bool {
	open := markOpen(mark)
	for rest := body; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			return false
		}
		rest = rest[i+len(open):]
		if sig, _, ok := strings.Cut(rest, " -->"); ok && k.verifiesMark(mark, sig) {
			return true
		}
	}
}

// SealedMarks lists the plain forms of the marks body carries sealed under the issue's
// keys: what the app's own comments carry, and nothing anyone else can write.
func (k IssueKeys) SealedMarks(body string) []string {
	var marks []string
	for rest := body; ; {
		i := strings.Index(rest, "<!-- clarify:")
		if i < 0 {
			return marks
		}
		rest = rest[i:]
		inner, _, ok := strings.Cut(rest[len("<!-- "):], " -->")
		rest = rest[len("<!-- "):]
		if !ok {
			continue
		}
		fields := strings.Fields(inner)
		var mark string
		switch {
		case len(fields) == 2 && fields[0] == "clarify:status":
			mark = StatusMarker
		case len(fields) == 3 && fields[0] == "clarify:msg":
			mark = msgOpen + fields[1] + " -->"
		default:
			continue
		}
		if k.verifiesMark(mark, fields[len(fields)-1]) {
			marks = append(marks, mark)
		}
	}
}

// verifiesMark reports whether sig is mark's seal under one of the issue's keys.
func (k IssueKeys) verifiesMark(mark, sig string) bool {
	sum, err := b64url.DecodeString(sig)
	return err == nil && len(sum) > 0 && k.verifies(sum, []byte(markLabel+mark))
}
