package asker

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// Status reads the records of the issue's clarifications, or of the one that id names: a
// CLR- id (checked with CheckID before any request), or else an ask's ref (the newest
// clarification asked with it). One the ledger does not hold is answered as absent says:
// the record of an ask not taken yet with an error that is ErrNotTaken, a cannot-verify
// or an unknown-clarification *Error. An issue where nothing was asked has none.
func (c *Client) Status(ctx context.Context, issue clarify.IssueRef, id string) ([]clarify.AskRecord, error) {
	return c.status(ctx, issue, id, time.Time{})
}

// status is Status for a reader that must be done by until (zero: whenever), a wait.
func (c *Client) status(ctx context.Context, issue clarify.IssueRef, id string, until time.Time) ([]clarify.AskRecord, error) {
	byRef := id != "" && !isID(id)
	if id != "" && !byRef {
		if err := CheckID(issue, id); err != nil {
			return nil, err
		}
		id, _ = clarify.NormalizeID(id)
	}
	snap, err := c.read(ctx, issue, readOpts{enough: c.enoughFor(issue, id, byRef), until: until})
	if err != nil {
		return nil, err
	}
	if id != "" {
		cl, ok := byID(snap.ledger, id)
		if byRef {
			cl, ok = c.newestByRef(issue, snap.ledger, id)
		}
		if !ok {
			return c.absent(ctx, issue, snap, id, byRef)
		}
		return []clarify.AskRecord{c.record(issue, cl)}, nil
	}
	if e := c.otherOf(ctx, issue, snap, false); e != nil {
		return nil, e
	}
	recs := []clarify.AskRecord{}
	for _, cl := range snap.ledger.Clarifications {
		recs = append(recs, c.record(issue, cl))
	}
	return recs, nil
}

// absent is the one rule of every door (bot, gh clarify, bot mcp; a read, a wait) for a
// clarification id (a ref when byRef) that the ledger just read does not hold:
//   - blocks claiming to be Clarify's that the client cannot verify (unverifiable), when
//     no status comment is believed: that cannot-verify *Error, with the fix;
//   - else, while an ask Clarify has not taken yet may become it, its record as posted
//     (notTakenRecord) with an error that is ErrNotTaken: a ref always may (a dispatch is
//     seen in the issue only once Clarify takes it); an id only while it is past the last
//     the issue handed out and no further past it than the asks Clarify has not taken yet
//     in the issue (asksNotTaken), since ids are handed out in the order asks are taken;
//   - else an unknown-clarification *Error.
func (c *Client) absent(ctx context.Context, issue clarify.IssueRef, snap snapshot, id string, byRef bool) ([]clarify.AskRecord, error) {
	since := time.Time{} // no status comment: every comment may be an ask not taken yet
	if snap.ok && !snap.ledger.Saved.IsZero() {
		since = snap.ledger.Saved.Add(-ledger.SaveSkew)
	}
	comments, err := ledger.ListCommentsSince(ctx, c.gh, issue, since, 0)
	if err != nil {
		return nil, err
	}
	if !snap.ok {
		if e := unverifiable(snap.reader, issue, comments); e != nil {
			return nil, e
		}
	}
	rec := []clarify.AskRecord{c.notTakenRecord(issue, id)}
	if byRef {
		return rec, &notTakenYet{fmt.Sprintf("no clarification of %s was asked with ref %s yet: Clarify has not taken it yet "+
			"(an ask by dispatch shows in the issue only once it is taken)", issue, id)}
	}
	last := "none yet"
	if snap.ledger.Seq > 0 {
		last = clarify.FormatID(issue.Number, snap.ledger.Seq)
	}
	n := asksNotTaken(snap, issue, comments)
	waiting := fmt.Sprintf("asks in it that Clarify has not taken yet: %d", n)
	if past := seqOf(id) - snap.ledger.Seq; past > 0 && past <= n {
		return rec, &notTakenYet{fmt.Sprintf("%s: Clarify has not taken it yet: the issue's last clarification is %s; %s", id, last, waiting)}
	}
	return nil, &Error{Code: clarify.CodeUnknownID, Msg: fmt.Sprintf("%s has no clarification %s by %s, nor can an ask become it: "+
		"its last is %s; %s", issue, id, snap.reader.Bot, last, waiting)}
}

// asksNotTaken counts the asks among comments (the issue's, since a time before the
// ledger's last save) that Clarify has not taken yet: past the ledger's cursor, no comment
// of Clarify's own, asks as Clarify parses them, and with no reply of Clarify's (a refusal
// moves no cursor when nothing else changed).
func asksNotTaken(snap snapshot, issue clarify.IssueRef, comments []*github.IssueComment) int {
	n := 0
	for _, cm := range comments {
		if cm.GetID() <= snap.ledger.Cursor || snap.reader.Owns(issue, cm) {
			continue
		}
		if cmd, err := clarify.Parse(cm.GetBody()); err != nil || cmd.Kind != clarify.CmdAsk || replied(snap.reader, issue, comments, cm.GetID()) {
			continue
		}
		n++
	}
	return n
}

// replied reports whether one of Clarify's own comments among comments replies to the
// comment of that id.
func replied(r ledger.Reader, issue clarify.IssueRef, comments []*github.IssueComment, id int64) bool {
	for _, cm := range comments {
		if cm.GetID() > id && r.Owns(issue, cm) && render.HasMarker(cm.GetBody(), clarify.ReplyKey(id)) {
			return true
		}
	}
	return false
}

// notTakenYet says what a read or a wait asked about is not in the ledger yet, but an ask
// Clarify has not taken yet may become it: it is ErrNotTaken, in its own words.
type notTakenYet struct{ msg string }

func (e *notTakenYet) Error() string        { return e.msg }
func (e *notTakenYet) Is(target error) bool { return target == ErrNotTaken }

// notTakenRecord is the record of id (or of the ask with that ref) while Clarify has not
// taken the ask that may become it: status posted, with the id or the ref asked about;
// its next step is to wait for an id, to find it by its ref for a ref.
func (c *Client) notTakenRecord(issue clarify.IssueRef, id string) clarify.AskRecord {
	r := clarify.AskRecord{V: clarify.AskRecordVersion, Issue: issue.Number, Status: clarify.StatusPosted, URL: c.issueURL(issue), Ref: id,
		Next: clarify.NextStep(clarify.StatusPosted, "")}
	if isID(id) {
		r.ID, r.Ref, r.Next = id, "", clarify.NextWait
	}
	return r
}

// enoughFor is a read's enough for the record of id (a ref when byRef): the status
// comment will do when it holds it, for an archive holds only clarifications older than
// any there. For every record, none will do.
func (c *Client) enoughFor(issue clarify.IssueRef, id string, byRef bool) func(clarify.Ledger) bool {
	switch {
	case id == "":
		return nil
	case byRef:
		return func(l clarify.Ledger) bool { _, ok := c.newestByRef(issue, l, id); return ok }
	}
	return func(l clarify.Ledger) bool { _, ok := byID(l, id); return ok }
}

// seqOf is the sequence number of id, a normalised clarification id (CLR-42-007: 7).
func seqOf(id string) int {
	n, _ := strconv.Atoi(id[strings.LastIndexByte(id, '-')+1:])
	return n
}

// isID reports whether s was meant as a clarification's id rather than a ref: it starts
// CLR- (any case).
func isID(s string) bool { return len(s) >= 4 && strings.EqualFold(s[:4], "clr-") }

// Decision is one decision in force in a repository, as an agent reads it before it asks:
// what was decided, on which topic, by whom, and where.
type Decision struct {
	Topic    string    `json:"topic,omitempty"`
	Question string    `json:"question,omitempty"`
	Decision string    `json:"decision"`
	By       string    `json:"by"`
	At       time.Time `json:"at"`
	// ID is the clarification that settled it; Where the issue ("OWNER/REPO#N") and
	// CommentID the comment it was settled in.
	ID        string `json:"id"`
	Where     string `json:"where"`
	CommentID int64  `json:"comment_id,omitempty"`
	// Expect is what the settled question expected, and Value the decision's typed value
	// by it, absent when it has none (clarify.Decision).
	Expect string        `json:"expect,omitempty"`
	Value  clarify.Value `json:"value,omitempty"`
}

// Decisions reads the repository's decisions in force (those not superseded), as the app's
// decision memory holds them, on topic only when topic is not empty (any case).
func (c *Client) Decisions(ctx context.Context, owner, repo, topic string) ([]Decision, error) {
	r, err := c.readerOf(ctx, owner, repo)
	if err != nil {
		return nil, err
	}
	mem, err := r.ReadDecisions(ctx, c.gh, owner, repo)
	if err != nil {
		return nil, err
	}
	out := []Decision{}
	for _, d := range mem.Decisions {
		if !d.InForce() || (topic != "" && !strings.EqualFold(strings.TrimSpace(topic), d.Topic)) {
			continue
		}
		where := clarify.IssueRef{Owner: owner, Repo: repo, Number: d.Issue}
		out = append(out, Decision{Topic: d.Topic, Question: d.Question, Decision: d.Decision, By: d.By, At: d.At,
			ID: d.ID, Where: where.String(), CommentID: d.CommentID, Expect: d.Expect, Value: d.Value})
	}
	return out, nil
}
