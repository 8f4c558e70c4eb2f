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
// person); it is told to Notes when it happens. Nor does an ask Clarify has not taken yet
// that may become it (Status's rule, absent): told to Notes once, it is waited for, and a
// wait whose time passes before Clarify takes it returns its posted record with an error
// that is ErrNotTaken. The wait ends by its time, reads included: the last pause ends a
// read's time early, and finding the status comment of a long issue stops at the time (the
// record then has its id and StatusReading) and goes on at the next wait.
func (c *Client) Wait(ctx context.Context, issue clarify.IssueRef, id string, timeout time.Duration) (clarify.AskRecord, error) {
	deadline := c.now().Add(timeout)
	var (
		last    clarify.AskRecord
		took    time.Duration // a read's time, the first's (which finds the status comment) aside
		pending error         // why the last read found it not taken yet (ErrNotTaken), or nil
	)
	d := c.poll.First
	for {
		began := c.now()
		r, err := c.waitRead(ctx, issue, id, deadline, last, &pending)
		if err != nil {
			return r, err
		}
		if last.Status != "" {
			took = c.now().Sub(began)
		}
		if r.Status == string(clarify.Escalated) && last.Status != r.Status {
			fmt.Fprintf(c.notes, "%s escalated: it waits for a maintainer now (still waiting)\n", r.ID)
		}
		if r.Outcome != "" {
			return r, nil
		}
		if last.Status != "" && (r.Status != last.Status || r.Round != last.Round) {
			d = c.poll.First // something moves: look again soon
		}
		last = r
		more, err := c.pause(ctx, d, deadline.Add(-took))
		switch {
		case err != nil:
			return last, err
		case !more && pending != nil:
			return last, &notTakenYet{fmt.Sprintf("%v; still not taken after %s", pending, timeout)}
		case !more:
			return last, ErrStillOpen
		}
		d = c.poll.next(d)
	}
}

// waitRead is one read of a wait: the record of id as it stands, or as posted while
// Clarify has not taken the ask that may become it (pending says why, told to Notes the
// first time); else what ends the wait: the record of StatusReading and ErrStillOpen when
// finding the status comment ran out of time, or last and the error.
func (c *Client) waitRead(ctx context.Context, issue clarify.IssueRef, id string, deadline time.Time, last clarify.AskRecord,
	pending *error) (clarify.AskRecord, error) {
	rec, err := c.status(ctx, issue, id, deadline)
	switch {
	case errors.Is(err, errNotYet):
		return notYet(issue, id), ErrStillOpen
	case errors.Is(err, ErrNotTaken):
		if *pending == nil {
			fmt.Fprintf(c.notes, "%v (still waiting)\n", err)
		}
		*pending = err
	case err != nil:
		return last, err
	default:
		*pending = nil
	}
	return rec[0], nil
}

// Exit codes of a wait, one per outcome (bot wait, gh clarify wait); an error and a usage
// mistake exit as every bot command does (internal/cli), but for ExitCannotVerify.
const (
	ExitAnswered  = cli.ExitOK
	ExitError     = cli.ExitError
	ExitUsage     = cli.ExitUsage
	ExitFallback  = 3
	ExitAbandoned = 4
	// ExitStillOpen is timeout(1)'s code for a time-out.
	ExitStillOpen = 124
)

// ExitCannotVerify is the exit code of every asker's command (ask, wait, status, resolve,
// followup, abandon) that finds blocks claiming to be Clarify's it cannot verify (a cannot-verify *Error: unverifiable, ErrNoVerifyKey): distinct from ExitPosted,
// since waiting longer changes nothing until the account or the keys believed are fixed.
const ExitCannotVerify = 6

// ExitCode is a wait's exit code for what it returned.
func ExitCode(r clarify.AskRecord, err error) int {
	switch {
	case errors.Is(err, ErrStillOpen):
		return ExitStillOpen
	case errors.Is(err, ErrNotTaken):
		return ExitPosted
	case err != nil:
		return failed(err)
	case r.Outcome == clarify.OutcomeTimeoutAssumed:
		return ExitFallback
	case r.Outcome == clarify.OutcomeAbandoned:
		return ExitAbandoned
	}
	return ExitAnswered
}

// failed is the exit code of a command that failed with err: ExitCannotVerify for a
// cannot-verify *Error, else ExitError.
func failed(err error) int {
	var e *Error
	if errors.As(err, &e) && e.Code == clarify.CodeCannotVerify {
		return ExitCannotVerify
	}
	return ExitError
}

// notYet is the record of id (or of the ask with that ref) as a wait whose read ran out of
// time finding the status comment knows it: the issue, the id or the ref asked for, status
// StatusReading and, next, to wait again.
func notYet(issue clarify.IssueRef, id string) clarify.AskRecord {
	r := clarify.AskRecord{V: clarify.AskRecordVersion, Issue: issue.Number, Ref: id, Status: clarify.StatusReading,
		Next: clarify.NextStep(clarify.StatusReading, "")}
	if n, ok := clarify.NormalizeID(id); ok && isID(id) {
		r.ID, r.Ref = n, ""
	}
	return r
}
