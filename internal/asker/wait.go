package asker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
)

// ErrStillOpen says a wait's time passed with the clarification still open; the record
// returned with it is as it stands.
var ErrStillOpen = errors.New("still open when the time was up")

// Wait reads the issue until the clarification is answered or settled (its record has an
// outcome), or timeout passes (ErrStillOpen, with the record as it stands). Each read after
// the first is conditional: while nothing changes it costs a 304, and the interval between
// reads doubles up to a minute. An escalation does not end the wait (it still waits for a
// person); it is told to Notes when it happens. The wait ends by its time, reads included:
// the last pause ends a read's time early, and finding the status comment of a long issue
// stops at the time (the record then has only its id) and goes on at the next wait.
func (c *Client) Wait(ctx context.Context, issue clarify.IssueRef, id string, timeout time.Duration) (clarify.AskRecord, error) {
	deadline := c.now().Add(timeout)
	var (
		last clarify.AskRecord
		took time.Duration // a read's time, the first's (which finds the status comment) aside
	)
	d := c.poll.First
	told := false
	for {
		began := c.now()
		rec, err := c.waitRead(ctx, issue, id, deadline, &told)
		switch {
		case errors.Is(err, errNotYet):
			return notYet(issue, id), ErrStillOpen
		case err != nil:
			return last, err
		}
		if last.ID != "" {
			took = c.now().Sub(began)
		}
		r := rec[0]
		if r.Status == string(clarify.Escalated) && last.Status != r.Status {
			fmt.Fprintf(c.notes, "%s escalated: it waits for a maintainer now (still waiting)\n", r.ID)
		}
		if r.Outcome != "" {
			return r, nil
		}
		if last.ID != "" && (r.Status != last.Status || r.Round != last.Round) {
			d = c.poll.First // something moves: look again soon
		}
		last = r
		more, err := c.pause(ctx, d, deadline.Add(-took))
		if err != nil {
			return last, err
		}
		if !more {
			return last, ErrStillOpen
		}
		d = c.poll.next(d)
	}
}

// waitRead is one read of a wait: the record of id, or, while Clarify has not taken the ask
// yet (a ref, or an id past the issue's last), the record as a wait that has not read it
// knows it, told to Notes once: a wait started right after an ask waits for Clarify to
// take it instead of failing.
func (c *Client) waitRead(ctx context.Context, issue clarify.IssueRef, id string, deadline time.Time, told *bool) ([]clarify.AskRecord, error) {
	rec, err := c.status(ctx, issue, id, deadline)
	var e *Error
	if !errors.As(err, &e) || !e.later {
		return rec, err
	}
	if !*told {
		fmt.Fprintf(c.notes, "%s: Clarify has not taken it yet (still waiting)\n", e.Msg)
		*told = true
	}
	return []clarify.AskRecord{notYet(issue, id)}, nil
}

// Exit codes of a wait, one per outcome (bot wait, gh clarify wait); an error and a usage
// mistake exit as every bot command does (internal/cli).
const (
	ExitAnswered  = cli.ExitOK
	ExitError     = cli.ExitError
	ExitUsage     = cli.ExitUsage
	ExitFallback  = 3
	ExitAbandoned = 4
	// ExitStillOpen is timeout(1)'s code for a time-out.
	ExitStillOpen = 124
)

// ExitCode is a wait's exit code for what it returned.
func ExitCode(r clarify.AskRecord, err error) int {
	switch {
	case errors.Is(err, ErrStillOpen):
		return ExitStillOpen
	case err != nil:
		return ExitError
	case r.Outcome == clarify.OutcomeTimeoutAssumed:
		return ExitFallback
	case r.Outcome == clarify.OutcomeAbandoned:
		return ExitAbandoned
	}
	return ExitAnswered
}

// notYet is the record of id (or of the ask with that ref) as a wait that has not read it
// yet knows it: the issue, and the id or the ref asked for.
func notYet(issue clarify.IssueRef, id string) clarify.AskRecord {
	if n, ok := clarify.NormalizeID(id); ok && isID(id) {
		return clarify.AskRecord{V: clarify.AskRecordVersion, Issue: issue.Number, ID: n}
	}
	return clarify.AskRecord{V: clarify.AskRecordVersion, Issue: issue.Number, Ref: id}
}
