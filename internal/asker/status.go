package asker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// Status reads the records of the issue's clarifications, or of the one of that id (an
// *Error unknown-clarification when there is none). An issue where nothing was asked has
// none.
func (c *Client) Status(ctx context.Context, issue clarify.IssueRef, id string) ([]clarify.AskRecord, error) {
	snap, err := c.read(ctx, issue)
	if err != nil {
		return nil, err
	}
	if id != "" {
		cl, ok := byID(snap.ledger, id)
		if !ok && snap.other != nil {
			return nil, &Error{Code: clarify.CodeUnknownID, Msg: fmt.Sprintf("%s has no clarification %s by %s: %v", issue, id, snap.reader.Bot, snap.other)}
		}
		if !ok {
			return nil, &Error{Code: clarify.CodeUnknownID, Msg: fmt.Sprintf("%s has no clarification %s by %s", issue, id, snap.reader.Bot)}
		}
		return []clarify.AskRecord{clarify.AskRecordOf(snap.ledger.Issue, cl)}, nil
	}
	recs := []clarify.AskRecord{}
	for _, cl := range snap.ledger.Clarifications {
		recs = append(recs, clarify.AskRecordOf(snap.ledger.Issue, cl))
	}
	return recs, nil
}

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
			ID: d.ID, Where: where.String(), CommentID: d.CommentID})
	}
	return out, nil
}
