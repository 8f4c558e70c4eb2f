package asker

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// Status reads the records of the issue's clarifications, or of the one that id names: a
// CLR- id (checked with CheckID before any request), or else an ask's ref (the newest
// clarification asked with it). None is an *Error unknown-clarification. An issue where
// nothing was asked has none.
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
			return nil, c.unknown(ctx, issue, snap, id, byRef)
		}
		return []clarify.AskRecord{c.record(issue, cl)}, nil
	}
	recs := []clarify.AskRecord{}
	for _, cl := range snap.ledger.Clarifications {
		recs = append(recs, c.record(issue, cl))
	}
	return recs, nil
}

// unknown is the error of a read that found no clarification id (a ref when byRef).
func (c *Client) unknown(ctx context.Context, issue clarify.IssueRef, snap snapshot, id string, byRef bool) error {
	what := id
	if byRef {
		what = "asked with ref " + id
	}
	msg := fmt.Sprintf("%s has no clarification %s by %s", issue, what, snap.reader.Bot)
	other := c.otherOf(ctx, issue, snap, false)
	if other != nil {
		msg += ": " + other.Error()
	}
	// Not there yet, unless another account writes as Clarify here or the id is one the
	// issue has already handed out.
	later := other == nil && (byRef || !snap.ok || seqOf(id) > snap.ledger.Seq)
	return &Error{Code: clarify.CodeUnknownID, Msg: msg, later: later}
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
