package asker

import (
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// byID is the clarification of that id in the ledger.
func byID(l clarify.Ledger, id string) (clarify.Clarification, bool) {
	for _, c := range l.Clarifications {
		if strings.EqualFold(c.ID, id) {
			return c, true
		}
	}
	return clarify.Clarification{}, false
}

// byComment is the clarification that the comment asked: its first question came from it
// (a comment's id, or the id of the app's mirror of a dispatch).
func byComment(l clarify.Ledger, comment int64) (clarify.Clarification, bool) {
	for _, c := range l.Clarifications {
		if len(c.Thread) > 0 && c.Thread[0].Kind == clarify.KindQuestion && c.Thread[0].CommentID == comment {
			return c, true
		}
	}
	return clarify.Clarification{}, false
}

// byRef is the clarification a comment's ask of asker's with that ref is, as the app
// decides it: an open one of the same asker with that ref is the same ask
// (clarify.SameAsk); else the newest of the asker's with that ref asked after the comment
// after (the newest before the ask was sent). Another asker's is never taken.
func byRef(l clarify.Ledger, ref, asker string, after int64) (clarify.Clarification, bool) {
	if ref == "" || asker == "" {
		return clarify.Clarification{}, false
	}
	if c, ok := clarify.SameAsk(l, asker, ref, ""); ok {
		return c, true
	}
	for i := len(l.Clarifications) - 1; i >= 0; i-- {
		c := l.Clarifications[i]
		if c.Ref == ref && strings.EqualFold(c.Asker.Login, asker) && len(c.Thread) > 0 && c.Thread[0].CommentID > after {
			return c, true
		}
	}
	return clarify.Clarification{}, false
}

// byNonce is the clarification a dispatched ask with that nonce is: the open one with that
// nonce (the app's clarify.SameAsk: a retried step), else the newest with it asked after
// the comment after. The nonce is the asker's, so another asker's is never taken.
func byNonce(l clarify.Ledger, nonce string, after int64) (clarify.Clarification, bool) {
	for i := len(l.Clarifications) - 1; nonce != "" && i >= 0; i-- {
		c := l.Clarifications[i]
		if c.Nonce == nonce && (c.Status.Open() || len(c.Thread) > 0 && c.Thread[0].CommentID > after) {
			return c, true
		}
	}
	return clarify.Clarification{}, false
}

// newest is the id of the newest comment of a list (0: none): what an ask's read compares
// later comments with.
func newest(comments []*github.IssueComment) int64 {
	var id int64
	for _, c := range comments {
		id = max(id, c.GetID())
	}
	return id
}

// refusal is the app's refusal of an ask: its reply to the ask's comment, or, for a
// dispatch, a refusal record naming the ask's nonce written after the ask was sent (another
// asker's refusal of the same ref is not this one's). Only the comments r takes for the
// app's own are read (ledger's rule: from a shared account, only those it sealed, or
// signed). The reason is the one the refusal gives.
func refusal(r ledger.Reader, issue clarify.IssueRef, comments []*github.IssueComment, s sent) (render.Record, string, bool) {
	for _, cm := range comments {
		if cm.GetID() <= s.after || !r.Owns(issue, cm) {
			continue
		}
		rec, ok := render.ReadRecord(cm.GetBody())
		if !ok || rec.Kind != "refusal" {
			continue
		}
		if s.comment != 0 && render.HasMarker(cm.GetBody(), clarify.ReplyKey(s.comment)) {
			return rec, render.RefusalReason(cm.GetBody()), true
		}
		if s.comment == 0 && s.nonce != "" && rec.Nonce == s.nonce {
			return rec, render.RefusalReason(cm.GetBody()), true
		}
	}
	return render.Record{}, "", false
}
