package asker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

// Settle is one settling command an asker gives about its clarification.
type Settle struct {
	Issue clarify.IssueRef
	// ID is the clarification's id, CLR-<issue>-<nnn>.
	ID string
	// Kind is clarify.CmdResolve, clarify.CmdFollowup or clarify.CmdAbandon.
	Kind clarify.CommandKind
	// Text is the decision of a resolve (optional: without one the last answer stands),
	// the new question of a followup (required), the reason of an abandon (optional).
	Text string
	// Dispatch sends the command as a repository_dispatch rather than a comment.
	Dispatch bool
	// Timeout bounds the wait for Clarify to take it (0: DefaultTakeTimeout).
	Timeout time.Duration
}

// CheckID says what is wrong with id as the id of a clarification of issue, nil when
// nothing is: it must read CLR-<issue>-<nnn> with issue's number. Every door checks an id
// with it before any request, so a typo costs nothing and names the issue it meant.
func CheckID(issue clarify.IssueRef, id string) error {
	norm, ok := clarify.NormalizeID(id)
	if !ok {
		return &Error{Code: clarify.CodeUnknownID, Msg: fmt.Sprintf("%q is no clarification id: write CLR-%d-001", id, issue.Number)}
	}
	if want := fmt.Sprintf("CLR-%d-", issue.Number); !strings.HasPrefix(norm, want) {
		return &Error{Code: clarify.CodeUnknownID, Msg: fmt.Sprintf("%s is not a clarification of %s: its ids start %s", norm, issue, want)}
	}
	return nil
}

// check refuses, before any request, a settle that cannot be carried out as given.
func (s Settle) check() error {
	if s.Issue.Number <= 0 {
		return errors.New("no issue: give OWNER/REPO#N")
	}
	if err := CheckID(s.Issue, s.ID); err != nil {
		return err
	}
	switch s.Kind {
	case clarify.CmdResolve, clarify.CmdAbandon:
	case clarify.CmdFollowup:
		if strings.TrimSpace(s.Text) == "" {
			return errors.New("a followup needs its question")
		}
	default:
		return fmt.Errorf("%q settles nothing: resolve, followup or abandon", s.Kind)
	}
	return nil
}

// command is the settle as a comment says it, and as Clarify's mirror of its dispatch
// quotes it.
func (s Settle) command() string {
	id, _ := clarify.NormalizeID(s.ID) // checked
	return clarify.FormatCommand(clarify.Command{Kind: s.Kind, ID: id, Text: s.Text})
}

// payload is the settle as a clarify dispatch's client_payload (handlers/dispatch.go), with
// the nonce its mirror is found by.
func (s Settle) payload(nonce string) json.RawMessage {
	id, _ := clarify.NormalizeID(s.ID)
	p := wire.DispatchPayload{Issue: s.Issue.Number, Action: string(s.Kind), ID: id, Context: &wire.AskContext{Nonce: nonce}}
	switch s.Kind {
	case clarify.CmdResolve:
		p.Decision = s.Text
	case clarify.CmdFollowup:
		p.Question = s.Text
	default:
		p.Reason = s.Text
	}
	b, _ := json.Marshal(p) // a DispatchPayload always marshals
	return b
}

// Settle gives the command and reads until Clarify has taken it: the clarification's record
// once the command is in its thread (resolved, abandoned, or a new round), an *Error with
// the refusal's code and the reason its reply gives, or ErrNotTaken with the record as it
// stands. The id is checked (CheckID) before any request.
func (c *Client) Settle(ctx context.Context, s Settle) (clarify.AskRecord, error) {
	if err := s.check(); err != nil {
		return clarify.AskRecord{}, err
	}
	deadline := c.now().Add(orDefault(s.Timeout, DefaultTakeTimeout))
	sn, err := c.sendSettle(ctx, s)
	if err != nil {
		return clarify.AskRecord{}, err
	}
	return c.settled(ctx, s, sn, deadline)
}

// sendSettle gives the command and returns what it left to be found by: the comment that
// stands for it (0 for a dispatch: its mirror is found later, by the nonce it carries), the
// newest comment before it, and a time before it.
func (c *Client) sendSettle(ctx context.Context, s Settle) (sent, error) {
	if s.Dispatch {
		sn, err := c.mark(ctx, s.Issue)
		if err != nil {
			return sent{}, err
		}
		sn.nonce = newNonce()
		return sn, c.sendDispatch(ctx, s.Issue, s.payload(sn.nonce), "/clarify "+string(s.Kind))
	}
	body := s.command()
	cm, _, err := c.gh.Issues.CreateComment(ctx, s.Issue.Owner, s.Issue.Repo, s.Issue.Number, &github.IssueComment{Body: &body})
	if err != nil {
		return sent{}, fmt.Errorf("post /clarify %s in %s: %w", s.Kind, s.Issue, err)
	}
	return sent{comment: cm.GetID(), after: cm.GetID() - 1, since: beforeTime(cm.GetCreatedAt().Time)}, nil
}

// settled reads the issue until the command's comment (or its dispatch's mirror, found by
// its quote of the command and its nonce) is in the clarification's thread or has the app's
// refusal, or deadline passes.
func (c *Client) settled(ctx context.Context, s Settle, sn sent, deadline time.Time) (clarify.AskRecord, error) {
	id, _ := clarify.NormalizeID(s.ID)
	comment := sn.comment
	for d, first := askPoll.First, true; ; d, first = askPoll.next(d), false {
		recent, snap, err := c.look(ctx, s.Issue, sn, first, c.enoughFor(s.Issue, id, false))
		if err != nil {
			return clarify.AskRecord{}, err
		}
		if comment == 0 {
			comment = mirrorOf(snap.reader, s.Issue, recent, s.command(), sn.nonce, sn.after)
		}
		cl, found := byID(snap.ledger, id)
		if found && comment != 0 && inThread(cl, comment) {
			return c.record(s.Issue, cl), nil
		}
		// The refusal of the mirror's command, or, before any mirror, of the dispatch's payload.
		if rec, reason, ok := refusal(snap.reader, s.Issue, recent, sent{comment: comment, nonce: sn.nonce, after: sn.after}); ok {
			return clarify.AskRecord{}, refused(rec, reason, "/clarify "+string(s.Kind), s.Issue)
		}
		more, err := c.pause(ctx, d, deadline)
		if err != nil {
			return clarify.AskRecord{}, err
		}
		if !more {
			var stands clarify.AskRecord
			if found {
				stands = c.record(s.Issue, cl)
			}
			return stands, fmt.Errorf("%w: Clarify did not take /clarify %s %s in %s within %s", ErrNotTaken, s.Kind, id, s.Issue,
				orDefault(s.Timeout, DefaultTakeTimeout))
		}
	}
}

// inThread reports whether the comment's command is in cl's thread.
func inThread(cl clarify.Clarification, comment int64) bool {
	for _, e := range cl.Thread {
		if e.CommentID == comment {
			return true
		}
	}
	return false
}

// mirrorOf is the app's mirror of a command dispatched with nonce, written after the
// comment after; 0 while there is none. Another sender's mirror of the same command, with
// another nonce or none, is never it (render.IsMirrorOf).
func mirrorOf(r ledger.Reader, issue clarify.IssueRef, comments []*github.IssueComment, command, nonce string, after int64) int64 {
	for _, cm := range comments {
		if cm.GetID() > after && r.Owns(issue, cm) && render.IsMirrorOf(cm.GetBody(), command, nonce) {
			return cm.GetID()
		}
	}
	return 0
}

// refused is the *Error of the app's refusal of what was sent, with the reason its reply
// gives.
func refused(rec render.Record, reason, what string, issue clarify.IssueRef) *Error {
	msg := "Clarify refused " + what + " in " + issue.String()
	if reason != "" {
		msg += ": " + reason
	}
	return &Error{Code: clarify.ErrorCode(rec.Code), Msg: msg}
}

// ByRef reads the record of the newest clarification in the issue whose ask carried ref;
// false when there is none (yet: an ask not taken in time may be taken later).
func (c *Client) ByRef(ctx context.Context, issue clarify.IssueRef, ref string) (clarify.AskRecord, bool, error) {
	snap, err := c.read(ctx, issue, readOpts{enough: c.enoughFor(issue, ref, true)})
	if err != nil {
		return clarify.AskRecord{}, false, err
	}
	cl, ok := c.newestByRef(issue, snap.ledger, ref)
	if !ok {
		return clarify.AskRecord{}, false, nil
	}
	return c.record(issue, cl), true, nil
}

// newestByRef is the newest clarification whose ask carried ref and is this client's: a
// dispatched ask's only with the nonce this client's token gives it (nonceOf), so that
// another asker's dispatched ask with the same ref is never taken for its own.
func (c *Client) newestByRef(issue clarify.IssueRef, l clarify.Ledger, ref string) (clarify.Clarification, bool) {
	for i := len(l.Clarifications) - 1; i >= 0 && ref != ""; i-- {
		cl := l.Clarifications[i]
		if cl.Ref == ref && (cl.Nonce == "" || cl.Nonce == c.nonceOf(issue, ref)) {
			return cl, true
		}
	}
	return clarify.Clarification{}, false
}

// record is the asker's record of cl, a clarification of issue, with the issue's page.
func (c *Client) record(issue clarify.IssueRef, cl clarify.Clarification) clarify.AskRecord {
	r := clarify.AskRecordOf(issue.Number, cl)
	r.URL = c.issueURL(issue)
	return r
}
