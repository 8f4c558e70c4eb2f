package render

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Mirror returns the comment that stands in an issue for a command sent through
// repository_dispatch, which has no comment of its own: who sent it, the command as a
// comment would have said it, and the people such a comment would have notified (a round
// leaves them out, taking them as told). block is the signed copy of the command that the
// app reads back; the quote is for people, so nothing in it can act as markup of the app's.
// Its record names the dispatch's nonce, if it carried one (IsMirrorOf).
func Mirror(sender, command, nonce string, mention []string, block, key string) string {
	return mirror(sender, "via `repository_dispatch`", command, nonce, mention, block, key)
}

// ReplyMirror is the app's comment in a work issue that stands for a reply made in one of
// its decision issues (RelationBody), as Mirror stands for a dispatch: who replied, where,
// and the command the reply is taken as.
func ReplyMirror(sender string, decision int, command string, mention []string, block, key string) string {
	return mirror(sender, fmt.Sprintf("in #%d", decision), command, "", mention, block, key)
}

// mirror is a mirror's body: the sender, where they said it (via), and the rest as Mirror's.
func mirror(sender, via, command, nonce string, mention []string, block, key string) string {
	var b strings.Builder
	if to := strings.TrimPrefix(strings.TrimSpace(sender), "@"); validHandle(to) && !strings.Contains(to, "/") {
		b.WriteString("@" + to)
	} else {
		b.WriteString(login(sender))
	}
	b.WriteString(" " + via + ", taken as their comment:\n\n")
	b.WriteString(quote(command, capEntry) + "\n")
	if m := mentions(mention); m != "" {
		b.WriteString("\ncc " + m + "\n")
	}
	b.WriteString("\n" + block + "\n")
	return finish(b.String(), key, Record{V: RecordVersion, Kind: "dispatch", Nonce: nonce})
}

// IsMirrorOf reports whether body is a mirror (Mirror) of command whose record names nonce:
// an asker that sent the command as a dispatch with that nonce finds by it the comment that
// stands for its command. Another sender may dispatch the same command a moment before, so
// the quote alone does not tell whose a mirror is; the nonce does, and a mirror without one
// (a dispatch of a client that sends none) is never that of a dispatch that carried one.
func IsMirrorOf(body, command, nonce string) bool {
	rec, ok := ReadRecord(body)
	return ok && rec.Kind == "dispatch" && rec.Nonce == nonce &&
		strings.Contains(body, " taken as their comment:\n\n"+quote(command, capEntry)+"\n")
}

// DispatchCopy is the signed copy of a dispatched command that its mirror hides: from it,
// and not from the quote people read, the app takes the command as the sender's comment.
type DispatchCopy struct {
	V int `json:"v"`
	// Delivery is the dispatch's delivery GUID, which a redelivery keeps.
	Delivery string `json:"delivery"`
	Login    string `json:"login"`
	// Type is the sender's account type ("User", "Bot").
	Type    string `json:"type"`
	Command string `json:"command"`
	// State is the asker's opaque state that came with an ask (clarify.Event.State), as
	// bytes so that the copy's size stays within 4/3 of it whatever it holds.
	State []byte `json:"state,omitempty"`
	// Nonce is a dispatched ask's nonce (clarify.Event.Nonce).
	Nonce string `json:"nonce,omitempty"`
	// At is when the app wrote the mirror, on its clock: a verbatim copy of the comment
	// posted later by the same account is not the mirror (MirrorSkew).
	At time.Time `json:"at,omitzero"`
}

// MirrorSkew is how far a mirror's comment may be made from the time its copy says it was
// written: the post's own time and clock skew, not the time a copy is made in.
const MirrorSkew = 10 * time.Minute

// Holds reports whether the copy stands for the comment made at created: it says when it
// was written, within MirrorSkew of it (a copy written before it said nothing holds).
func (m DispatchCopy) Holds(created time.Time) bool {
	if m.At.IsZero() {
		return true
	}
	d := created.Sub(m.At)
	return d <= MirrorSkew && d >= -MirrorSkew
}

// DispatchCopyVersion is the version of DispatchCopy this code writes and reads.
const DispatchCopyVersion = 1

// The hidden block of a mirror: "<!-- clarify:dispatch PAYLOAD.MAC -->", both base64url
// without padding (neither can form "-->"), the MAC over a label and PAYLOAD as written.
const (
	dispatchOpen  = "<!-- clarify:dispatch "
	dispatchClose = " -->"
	dispatchLabel = "clarify dispatch mirror v1\x00"
)

var b64url = base64.RawURLEncoding

// EncodeDispatch returns the hidden, signed block of a dispatched command, under the
// issue's signing key: a block pasted from another issue, or typed by anyone, does not verify.
func (k IssueKeys) EncodeDispatch(m DispatchCopy) (string, error) {
	if k.Signing() == nil {
		return "", errNoKey
	}
	js, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("render: encode dispatch copy: %w", err)
	}
	payload := b64url.EncodeToString(js)
	return dispatchOpen + payload + "." + b64url.EncodeToString(sign(k.Signing(), []byte(dispatchLabel+payload))) + dispatchClose, nil
}

// DecodeDispatch takes the signed copy out of a body; false when there is none, it does not
// verify under a key of the issue (the current one or one before a rotation), or it is of
// another version or names no sender.
func (k IssueKeys) DecodeDispatch(body string) (DispatchCopy, bool) {
	_, rest, ok := strings.Cut(body, dispatchOpen)
	if !ok {
		return DispatchCopy{}, false
	}
	block, _, ok := strings.Cut(rest, dispatchClose)
	if !ok {
		return DispatchCopy{}, false
	}
	payload, sig64, _ := strings.Cut(block, ".")
	sig, err := b64url.DecodeString(sig64)
	if err != nil || !k.verifies(sig, []byte(dispatchLabel+payload)) {
		return DispatchCopy{}, false
	}
	js, err := b64url.DecodeString(payload)
	var m DispatchCopy
	if err != nil || json.Unmarshal(js, &m) != nil || m.V != DispatchCopyVersion || m.Login == "" {
		return DispatchCopy{}, false
	}
	return m, true
}
