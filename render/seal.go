package render

import "strings"

// A marker (the status marker, or a message's Marker(key)) tells which of the app's
// comments is which: a post whose marker is already in the issue is not made again, and
// the comment with the status marker holds the ledger. A token's account may be shared
// (every workflow of a repository writes as github-actions[bot]), so the app seals the
// marker of each comment it writes under the issue's key:
// "<!-- clarify:msg KEY v2 SIG -->", "<!-- clarify:status v2 SIG -->". SIG is base64url of
// the MAC of the whole body with the seal put back to the plain marker, "\r\n" read as
// "\n" (GitHub gives a body back as written, and an edit in its web page writes "\r\n"):
// so the seal vouches for everything a reader takes from the comment, its record, its
// hidden block and its text. A marker typed by anyone else, pasted from another issue, or
// copied with a sealed marker into a comment of other text, does not verify; nor does the
// app's own comment once edited.
//
// Comments written before seals bound their body carry "<!-- clarify:msg KEY SIG -->"
// (v1): the MAC of the marker alone, which a copy into any text keeps. A v1 seal says only
// that the app posted a message carrying that marker (Posted), never that a comment's text
// is the app's (docs/ledger.md).
const (
	markLabel = "clarify marker v1\x00"
	bodyLabel = "clarify marker v2\x00"
	// sealTag opens the seal of a body-bound marker, before its SIG.
	sealTag = "v2 "
)

// Seal returns body with its last plain mark (StatusMarker, or a Marker(key)) sealed under
// the issue's signing key over the whole body. The app's messages end with their marker,
// after any user text, so the last one is the app's. A body that lacks mark is returned as
// it is, and so is one sealed already (the seal covers it).
func (k IssueKeys) Seal(body, mark string) string {
	i := strings.LastIndex(body, mark)
	if i < 0 || k.Signing() == nil || k.Sealed(body, mark) {
		return body
	}
	sig := b64url.EncodeToString(sign(k.Signing(), []byte(bodyLabel), []byte(sealedText(body))))
	return body[:i] + markOpen(mark) + sealTag + sig + " -->" + body[i+len(mark):]
}

// sealedText is what a seal's MAC covers: the body as the seal found it, the marker plain,
// with "\r\n" read as "\n". The signature a workflow's comment ends with (SignComment) is
// appended after sealing and signs the sealed body, so the seal covers the body without it.
func sealedText(body string) string { return strings.ReplaceAll(Unsigned(body), "\r\n", "\n") }

// markOpen is a plain marker without its end, "<!-- clarify:msg KEY ": what the plain and
// the sealed forms of the marker both begin with.
func markOpen(mark string) string { return strings.TrimSuffix(mark, "-->") }

// Sealed reports whether body carries mark sealed under one of the issue's keys (the
// current one, or one before a rotation) over this very body: the comment is the app's as
// it wrote it. This is the rule for what a reader takes from a comment of a shared account.
func (k IssueKeys) Sealed(body, mark string) bool {
	return k.carries(body, mark, false)
}

// Posted reports whether body carries mark sealed under one of the issue's keys, over the
// body (Sealed) or, as comments were sealed before, over the marker alone (v1): that the app
// posted a message carrying mark. A v1 seal can be copied into any text, so Posted only
// tells a post not to be made again (the marker was the app's, in a message it did post);
// it never makes a comment's text the app's.
func (k IssueKeys) Posted(body, mark string) bool {
	return k.carries(body, mark, true)
}

// carries looks for a seal of mark in body, a v1 one too when v1 is true.
func (k IssueKeys) carries(body, mark string, v1 bool) bool {
	open := markOpen(mark)
	for at := 0; ; {
		i := strings.Index(body[at:], open)
		if i < 0 {
			return false
		}
		start := at + i
		at = start + len(open)
		seal, _, ok := strings.Cut(body[at:], " -->")
		if !ok {
			continue
		}
		end := at + len(seal) + len(" -->")
		if k.verifiesSeal(body, start, end, mark, seal, v1) {
			return true
		}
	}
}

// verifiesSeal reports whether seal, the text of body[start:end] after mark's opening, is
// mark's seal over body (over mark alone too, when v1 is true).
func (k IssueKeys) verifiesSeal(body string, start, end int, mark, seal string, v1 bool) bool {
	if sig, ok := strings.CutPrefix(seal, sealTag); ok {
		sum, err := b64url.DecodeString(sig)
		return err == nil && len(sum) > 0 &&
			k.verifies(sum, []byte(bodyLabel), []byte(sealedText(body[:start]+mark+body[end:])))
	}
	if !v1 || strings.ContainsAny(seal, " ") {
		return false
	}
	sum, err := b64url.DecodeString(seal)
	return err == nil && len(sum) > 0 && k.verifies(sum, []byte(markLabel+mark))
}

// SealedMarks lists the plain forms of the marks body carries sealed over itself under the
// issue's keys (Sealed): what the app's own comments carry, and nothing anyone else can
// write.
func (k IssueKeys) SealedMarks(body string) []string {
	var marks []string
	for at := 0; ; {
		i := strings.Index(body[at:], "<!-- clarify:")
		if i < 0 {
			return marks
		}
		start := at + i
		at = start + len("<!-- ")
		inner, _, ok := strings.Cut(body[at:], " -->")
		if !ok {
			continue
		}
		fields := strings.Fields(inner)
		var mark string
		switch {
		case len(fields) == 3 && fields[0] == "clarify:status":
			mark = StatusMarker
		case len(fields) == 4 && fields[0] == "clarify:msg":
			mark = msgOpen + fields[1] + " -->"
		default:
			continue
		}
		seal := strings.TrimPrefix(inner, strings.TrimPrefix(markOpen(mark), "<!-- "))
		if k.verifiesSeal(body, start, at+len(inner)+len(" -->"), mark, seal, false) {
			marks = append(marks, mark)
		}
	}
}
