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

// byRef is the clarification an ask with that ref is, as the app decides it: an open one
// of the same asker with that ref is the same ask (clarify.SameAsk); else the newest with
// that ref asked after the comment after (the newest before the ask was sent). With the
// asker unknown (a dispatch's sender), any open one with that ref is taken for the same.
func byRef(l clarify.Ledger, ref, asker string, after int64) (clarify.Clarification, bool) {
	if ref == "" {
		return clarify.Clarification{}, false
	}
	if asker != "" {
		if c, ok := clarify.SameAsk(l, asker, ref); ok {
			return c, true
		}
	}
	for i := len(l.Clarifications) - 1; i >= 0; i-- {
		c := l.Clarifications[i]
		if c.Ref == ref && ((asker == "" && c.Status.Open()) || (len(c.Thread) > 0 && c.Thread[0].CommentID > after)) {
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

// refusal is the app's refusal of an ask, and the reason it gives: its reply to the ask's
// comment (a comment ask, or the mirror of a dispatch), or a refusal record naming the
// ask's ref written after the ask was sent. Only the comments r takes for the app's own are
// read (ledger's rule: from a shared account, only those it sealed, or signed).
func refusal(r ledger.LedgerReader, issue clarify.IssueRef, comments []*github.IssueComment, askComment int64, ref string, after int64) (render.Record, string, bool) {
	for _, cm := range comments {
		if cm.GetID() <= after || !r.Owns(issue, cm) {
			continue
		}
		rec, ok := render.ReadRecord(cm.GetBody())
		if !ok || rec.Kind != "refusal" {
			continue
		}
		if askComment != 0 && render.HasMarker(cm.GetBody(), clarify.ReplyKey(askComment)) {
			return rec, render.RefusalReason(cm.GetBody()), true
		}
		if ref != "" && rec.Ref == ref {
			return rec, render.RefusalReason(cm.GetBody()), true
		}
	}
	return render.Record{}, "", false
}
