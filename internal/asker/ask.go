package asker

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

// DefaultTakeTimeout is how long an ask waits for Clarify to take it: a run starts within
// seconds of the comment (a workflow within a minute).
const DefaultTakeTimeout = 60 * time.Second

// Ask is one question, as an asker gives it.
type Ask struct {
	Issue clarify.IssueRef
	// Target is whom it asks: "@login", "@org/team", or a role's name (no @).
	Target   string
	Question string
	Topic    string
	Options  []string
	// Fallback names an option by its letter ("a").
	Fallback    string
	NonBlocking bool
	// Ref is the asker's own correlation id (none: Ask makes one up, and the record it
	// returns carries it); State an opaque string it wants back (only a dispatch carries
	// it: it would be noise in a comment).
	Ref, State string
	// Dispatch sends the ask as a repository_dispatch instead of a comment (State implies it).
	Dispatch bool
	// Timeout bounds the wait for Clarify to take the ask (0: DefaultTakeTimeout).
	Timeout time.Duration
	// nonce is a dispatch's (Client.nonceOf), set when it is sent.
	nonce string
	// Expect is the kind of answer it takes, as an `Expect:` line says it ("number 1..100").
	Expect string
	// Needs is how many people's answers it needs, as a `Needs:` line says it (0: one).
	Needs int
}

// ErrNotTaken says Clarify did not take an ask (or a settle) in time: neither a
// clarification nor a refusal of it appeared. It was sent, and may still be taken: Ask
// returns the posted record with it, whose ref finds the ask later or asks it again as the
// same ask.
var ErrNotTaken = errors.New("not taken in time")

// ExitPosted is the exit code of an ask or a settle that was sent but not taken in time
// (ErrNotTaken): it may still be taken, and its ref finds it (bot ask, resolve, followup,
// abandon; gh clarify the same).
const ExitPosted = 5

// sent is what an ask left behind to be found by: its comment (0 for a dispatch), the
// asker's login (a comment's) or nonce (a dispatch's), the newest comment before it, and a
// time (GitHub's) before it, since which the app's reply is listed.
type sent struct {
	comment int64
	asker   string
	nonce   string
	after   int64
	since   time.Time
}

// Ask asks and waits until Clarify has taken the ask: the clarification's record, an
// *Error with the refusal's code and reason (or cannot-verify, as soon as Clarify's blocks
// are there but cannot be verified: unverifiable), or ErrNotTaken with the posted record
// (status StatusPosted, the ref). An ask whose ref is that of an open clarification of the same
// asker is that clarification (Clarify asks nothing twice); an ask without a ref is given
// one (newRef), so that asking again with the ref it came back with is the same ask.
func (c *Client) Ask(ctx context.Context, a Ask) (clarify.AskRecord, error) {
	if err := a.check(); err != nil {
		return clarify.AskRecord{}, err
	}
	if a.Ref == "" {
		a.Ref = newRef()
	}
	deadline := c.now().Add(orDefault(a.Timeout, DefaultTakeTimeout))
	var (
		s   sent
		err error
	)
	if a.Dispatch || a.State != "" {
		s, err = c.dispatch(ctx, a)
	} else {
		s, err = c.comment(ctx, a)
	}
	if err != nil {
		return clarify.AskRecord{}, err
	}
	return c.taken(ctx, a, s, deadline)
}

// MaxQuestionRunes is the longest question the client sends: Clarify's mirror quotes it in
// a comment that GitHub caps at 65,536 characters (render.MaxCommentBytes keeps room for
// the rest), and a question three bytes a character still fits.
const MaxQuestionRunes = 16_000

// check refuses, before anything is sent, an ask that Clarify would refuse for its form:
// the ask is read with the app's own parser (clarify.Parse), so a bad fallback letter or
// target comes back with the code and the words of the comment Clarify would post, and
// nothing is posted in the issue.
func (a Ask) check() error {
	switch {
	case a.Issue.Number <= 0:
		return errors.New("no issue: give OWNER/REPO#N")
	case strings.TrimSpace(a.Target) == "":
		return errors.New("no target: give @login, @org/team or a role's name")
	case strings.TrimSpace(a.Question) == "":
		return errors.New("no question")
	case utf8.RuneCountInString(a.Question) > MaxQuestionRunes:
		return &Error{Code: clarify.CodeTooLong, Msg: fmt.Sprintf("the question is %d characters long; it may have at most %d: "+
			"put the details in the issue and ask about them", utf8.RuneCountInString(a.Question), MaxQuestionRunes)}
	}
	if p := clarify.StateProblem(a.State); p != "" {
		return &Error{Code: clarify.CodeTooLong, Msg: p + " " + clarify.StateTry}
	}
	if _, err := clarify.Parse(commentBody(a)); err != nil {
		var pe *clarify.ParseError
		if errors.As(err, &pe) {
			return &Error{Code: cmp.Or(pe.Code, clarify.CodeBadCommand), Msg: strings.TrimSpace(pe.Problem + " " + pe.Try)}
		}
		return &Error{Code: clarify.CodeBadCommand, Msg: err.Error()}
	}
	return nil
}

// command is the ask as a comment says it.
func (a Ask) command() clarify.Command {
	cmd := clarify.Command{Kind: clarify.CmdAsk, Text: a.Question, Topic: a.Topic, Fallback: a.Fallback, NonBlocking: a.NonBlocking}
	cmd.Expect, cmd.Needs = a.Expect, a.Needs
	cmd.Target, cmd.BareTarget = strings.TrimPrefix(strings.TrimSpace(a.Target), "@"), !strings.HasPrefix(strings.TrimSpace(a.Target), "@")
	for i, o := range a.Options {
		cmd.Options = append(cmd.Options, clarify.Option{Key: string(rune('a' + i)), Text: o})
	}
	return cmd
}

// comment posts the ask as a comment with the caller's token.
func (c *Client) comment(ctx context.Context, a Ask) (sent, error) {
	body := commentBody(a)
	cm, _, err := c.gh.Issues.CreateComment(ctx, a.Issue.Owner, a.Issue.Repo, a.Issue.Number, &github.IssueComment{Body: &body})
	if err != nil {
		return sent{}, fmt.Errorf("post the ask in %s: %w", a.Issue, err)
	}
	return sent{comment: cm.GetID(), asker: cm.GetUser().GetLogin(), after: cm.GetID() - 1, since: beforeTime(cm.GetCreatedAt().Time)}, nil
}

// dispatch sends the ask as a repository_dispatch, which answers nothing to find it by:
// it is found by its ref.
func (c *Client) dispatch(ctx context.Context, a Ask) (sent, error) {
	s, err := c.mark(ctx, a.Issue)
	if err != nil {
		return sent{}, err
	}
	a.nonce = c.nonceOf(a.Issue, a.Ref)
	if err := c.sendDispatch(ctx, a.Issue, dispatchPayloadOf(a), "the ask"); err != nil {
		return sent{}, err
	}
	s.nonce = a.nonce
	return s, nil
}

// mark is where the issue stands before a dispatch, for finding what comes after it:
// GitHub's time of the issue's last change (no comment came after it), and the newest
// comment id the issue and its ledger show, without listing the issue's every page.
func (c *Client) mark(ctx context.Context, issue clarify.IssueRef) (sent, error) {
	is, _, err := c.gh.Issues.Get(ctx, issue.Owner, issue.Repo, issue.Number)
	if err != nil {
		return sent{}, fmt.Errorf("read %s: %w", issue, err)
	}
	s := sent{since: beforeTime(is.GetUpdatedAt().Time)}
	before, err := c.read(ctx, issue, readOpts{})
	if err != nil {
		return sent{}, err
	}
	recent, err := c.since(ctx, issue, s.since)
	if err != nil {
		return sent{}, err
	}
	s.after = max(newest(recent), before.ledger.Cursor)
	for _, cl := range before.ledger.Clarifications {
		for _, e := range cl.Thread {
			s.after = max(s.after, e.CommentID)
		}
	}
	return s, nil
}

// beforeTime is a time GitHub shows (whole seconds) made a second earlier, so that what
// came in that same second is listed since it, whether GitHub's since takes the time
// itself or only what is after it.
func beforeTime(t time.Time) time.Time { return t.Add(-time.Second) }

// newRef is a ref for an ask sent without one: "ask-" and 16 hex digits.
func newRef() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "ask-" + hex.EncodeToString(b)
}

// taken reads the issue until the ask is a clarification or refused, or deadline passes.
func (c *Client) taken(ctx context.Context, a Ask, s sent, deadline time.Time) (clarify.AskRecord, error) {
	enough := func(l clarify.Ledger) bool { _, ok := s.find(l, a.Ref); return ok }
	for d, first := askPoll.First, true; ; d, first = askPoll.next(d), false {
		recent, snap, err := c.look(ctx, a.Issue, s, first, enough)
		if err != nil {
			return clarify.AskRecord{}, sentWith(err, a.Ref)
		}
		if cl, ok := s.find(snap.ledger, a.Ref); snap.ok && ok {
			return c.record(a.Issue, cl), nil
		}
		if rec, reason, ok := refusal(snap.reader, a.Issue, recent, s); ok {
			return clarify.AskRecord{}, refused(rec, reason, "the ask", a.Issue)
		}
		more, err := c.pause(ctx, d, deadline)
		if err != nil {
			return clarify.AskRecord{}, err
		}
		if other := c.otherOf(ctx, a.Issue, snap, more); other != nil {
			return clarify.AskRecord{}, sentWith(other, a.Ref)
		}
		if !more {
			return c.posted(a), fmt.Errorf("%w: Clarify did not take the ask in %s within %s (is the app installed there, "+
				"or the workflow run on this event?); it was sent with ref %s", ErrNotTaken, a.Issue, orDefault(a.Timeout, DefaultTakeTimeout), a.Ref)
		}
	}
}

// sentWith is err, a cannot-verify *Error, saying the ask was sent with ref: once the
// client believes the right account or keys, the ref finds it. Any other err is as it is.
func sentWith(err error, ref string) error {
	var e *Error
	if !errors.As(err, &e) || e.Code != clarify.CodeCannotVerify {
		return err
	}
	return &Error{Code: e.Code, Msg: e.Msg + "; the ask was sent, with ref " + ref + ", which finds it then"}
}

// posted is the record of an ask sent but not taken yet: no id, the ref to find it by.
func (c *Client) posted(a Ask) clarify.AskRecord {
	return clarify.AskRecord{V: clarify.AskRecordVersion, Issue: a.Issue.Number, Status: clarify.StatusPosted, Ref: a.Ref,
		URL: c.issueURL(a.Issue), Next: clarify.NextStep(clarify.StatusPosted, "")}
}

// find is the clarification the ask became: the one its comment asked, else the one of
// its ref asked by the same login; for a dispatch, the one of its nonce.
func (s sent) find(l clarify.Ledger, ref string) (clarify.Clarification, bool) {
	if s.comment == 0 {
		return byNonce(l, s.nonce, s.after)
	}
	if cl, ok := byComment(l, s.comment); ok {
		return cl, true
	}
	return byRef(l, ref, s.asker, s.after)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
