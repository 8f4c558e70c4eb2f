package agentx

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// FromLedger is the AgentX file of a Clarify ledger (the status comment's with its
// archives' clarifications merged in) of an issue of repo ("owner/repo", or "" when
// unknown). ToLedger gives l back, field for field.
func FromLedger(l clarify.Ledger, repo string) File {
	f := File{IssueNumber: l.Issue, Clarifications: make([]Clarification, 0, len(l.Clarifications))}
	for _, c := range l.Clarifications {
		f.Clarifications = append(f.Clarifications, fromClarification(c))
	}
	x := LedgerExtra{
		Repository: repo, Cursor: l.Cursor, Rev: l.Rev, Closed: l.Closed,
		Archives: clone(l.Archives), Labels: clone(l.Labels), Head: l.Head, Hints: l.Hints,
		Saved: l.Saved, Read: l.Read, Relations: clone(l.Relations),
	}
	if l.Seq != highestSeq(l.Clarifications) {
		x.Seq = l.Seq
	}
	for _, a := range l.Assumptions {
		x.Assumptions = append(x.Assumptions, Assumption{
			Decision: a.Decision, Confidence: a.Confidence, Risk: a.Risk, From: a.Author,
			CommentID: a.CommentID, Timestamp: a.At, Clarification: a.Clarification, Source: a.Source,
		})
	}
	f.Clarify = unlessZero(x)
	return f
}

func fromClarification(c clarify.Clarification) Clarification {
	out := Clarification{
		ID: c.ID, From: partyName(c.Asker), To: targetName(c.Target), Topic: c.Topic,
		Blocking: c.Blocking, Status: string(c.Status), Round: c.Round, MaxRounds: c.MaxRounds,
		Created: c.CreatedAt, StaleAfter: c.StaleAfter, ResolvedAt: c.ResolvedAt,
		Thread: make([]Entry, 0, len(c.Thread)),
	}
	for _, e := range c.Thread {
		out.Thread = append(out.Thread, Entry{
			Round: e.Round, From: e.Author, Type: string(e.Kind), Body: e.Text, Timestamp: e.At,
			Clarify: unlessZero(EntryExtra{CommentID: e.CommentID, Edited: e.Edited, Value: e.Value}),
		})
	}
	x := ClarificationExtra{
		Type: c.Type, Options: clone(c.Options), Fallback: c.Fallback, Evidence: clone(c.Evidence),
		UpdatedAt: c.UpdatedAt, Resolution: c.Resolution, Precedent: clonePrecedent(c.Precedent),
		Ref: c.Ref, State: c.State, Nonce: c.Nonce, Expect: c.Expect, Needs: c.Needs,
	}
	// From says the role, or the login when there is no role; the login beside a role
	// needs a place of its own.
	if c.Asker.Login != "" {
		asker := c.Asker
		x.Asker = &asker
	}
	out.Clarify = unlessZero(x)
	return out
}

// ToLedger is the Clarify ledger a file holds. It refuses a file the app could not work
// with (an id that is not CLR-<issue>-<seq> of the file's issue, twice the same id, a
// status or an entry type neither format knows, negative rounds), naming every fault.
func ToLedger(f File) (clarify.Ledger, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if f.IssueNumber <= 0 {
		bad("issueNumber %d: an issue number is positive", f.IssueNumber)
	}
	l := clarify.Ledger{Version: clarify.LedgerVersion, Issue: f.IssueNumber}
	seen := map[string]bool{}
	top := 0
	for i, c := range f.Clarifications {
		at := fmt.Sprintf("clarifications[%d]", i)
		issue, seq, ok := splitID(c.ID)
		switch {
		case !ok:
			bad("%s.id %q: not a clarification id, CLR-<issue>-<seq> as in CLR-42-001", at, c.ID)
		case issue != f.IssueNumber:
			bad("%s.id %q: belongs to issue %d, not to the file's %d", at, c.ID, issue, f.IssueNumber)
		case seen[c.ID]:
			bad("%s.id %q: given twice", at, c.ID)
		}
		seen[c.ID] = true
		top = max(top, seq)
		cl, err := toClarification(c)
		if err != nil {
			bad("%s (%s): %w", at, c.ID, err)
		}
		l.Clarifications = append(l.Clarifications, cl)
	}
	l.Seq = top
	if x := f.Clarify; x != nil {
		if x.Seq != 0 {
			if x.Seq < top {
				bad("clarify.seq %d: below the sequence number of an id in the file (%d): the app would hand that id out again", x.Seq, top)
			}
			l.Seq = x.Seq
		}
		l.Cursor, l.Rev, l.Closed, l.Head, l.Hints, l.Saved, l.Read = x.Cursor, x.Rev, x.Closed, x.Head, x.Hints, x.Saved, x.Read
		l.Archives, l.Labels, l.Relations = clone(x.Archives), clone(x.Labels), clone(x.Relations)
		for _, a := range x.Assumptions {
			l.Assumptions = append(l.Assumptions, clarify.Assumption{
				Decision: a.Decision, Confidence: a.Confidence, Risk: a.Risk, Author: a.From,
				CommentID: a.CommentID, At: a.Timestamp, Clarification: a.Clarification, Source: a.Source,
			})
		}
	}
	if len(errs) > 0 {
		return clarify.Ledger{}, errors.Join(errs...)
	}
	return l, nil
}

func toClarification(c Clarification) (clarify.Clarification, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !slices.Contains(statuses, clarify.Status(c.Status)) {
		bad("status %q: not one of %s", c.Status, joinStrings(statuses))
	}
	if c.Round < 0 || c.MaxRounds < 0 {
		bad("round %d of maxRounds %d: neither can be negative", c.Round, c.MaxRounds)
	}
	out := clarify.Clarification{
		ID: c.ID, Asker: clarify.Party{Role: c.From}, Target: parseTarget(c.To), Topic: c.Topic,
		Blocking: c.Blocking, Status: clarify.Status(c.Status), Round: c.Round, MaxRounds: c.MaxRounds,
		CreatedAt: c.Created, StaleAfter: c.StaleAfter, ResolvedAt: c.ResolvedAt,
	}
	if x := c.Clarify; x != nil {
		// The asker's login is taken only while it agrees with From: From is the format's,
		// and wins over Clarify's note when someone changed one and not the other.
		if x.Asker != nil && partyName(*x.Asker) == c.From {
			out.Asker = *x.Asker
		}
		out.Type, out.Fallback, out.Resolution, out.UpdatedAt = x.Type, x.Fallback, x.Resolution, x.UpdatedAt
		out.Options, out.Evidence = clone(x.Options), clone(x.Evidence)
		out.Precedent = clonePrecedent(x.Precedent)
		out.Ref, out.State, out.Nonce, out.Expect, out.Needs = x.Ref, x.State, x.Nonce, x.Expect, x.Needs
	}
	for j, e := range c.Thread {
		if !slices.Contains(kinds, clarify.EntryKind(e.Type)) {
			bad("thread[%d].type %q: not one of %s", j, e.Type, joinStrings(kinds))
		}
		if e.Round < 0 {
			bad("thread[%d].round %d: cannot be negative", j, e.Round)
		}
		entry := clarify.Entry{Kind: clarify.EntryKind(e.Type), Round: e.Round, Author: e.From, At: e.Timestamp, Text: e.Body}
		if e.Clarify != nil {
			entry.CommentID, entry.Edited, entry.Value = e.Clarify.CommentID, e.Clarify.Edited, e.Clarify.Value
		}
		out.Thread = append(out.Thread, entry)
	}
	return out, errors.Join(errs...)
}

// statuses are the AgentX format's statuses, which are Clarify's too.
var statuses = []clarify.Status{clarify.Pending, clarify.Answered, clarify.Resolved, clarify.Stale, clarify.Escalated, clarify.Abandoned}

// kinds are the format's entry types (question, answer, resolution) and Clarify's two more.
var kinds = []clarify.EntryKind{clarify.KindQuestion, clarify.KindAnswer, clarify.KindResolution, clarify.KindEscalation, clarify.KindNote}

func joinStrings[S ~string](xs []S) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return strings.Join(out, ", ")
}

// partyName is the format's "from": the role the asker speaks for, else its login.
func partyName(p clarify.Party) string {
	if p.Role != "" {
		return p.Role
	}
	return p.Login
}

// targetName is the format's "to", written as one addresses the target in /clarify: a
// role bare, a person or a team after "@". parseTarget reads it back.
func targetName(t clarify.Target) string {
	if t.Kind == clarify.TargetLogin || t.Kind == clarify.TargetTeam {
		return "@" + t.Name
	}
	return t.Name
}

func parseTarget(s string) clarify.Target {
	name, at := strings.CutPrefix(s, "@")
	switch {
	case s == "":
		return clarify.Target{}
	case !at:
		return clarify.Target{Kind: clarify.TargetRole, Name: s}
	case strings.Contains(name, "/"):
		return clarify.Target{Kind: clarify.TargetTeam, Name: name}
	}
	return clarify.Target{Kind: clarify.TargetLogin, Name: name}
}

// splitID reads CLR-<issue>-<seq> exactly as clarify.FormatID writes it, so that the id
// the app would look an entry up by is the one in the file.
func splitID(id string) (issue, seq int, ok bool) {
	norm, ok := clarify.NormalizeID(id)
	if !ok || norm != id {
		return 0, 0, false
	}
	is, ss, _ := strings.Cut(strings.TrimPrefix(id, "CLR-"), "-")
	issue, _ = strconv.Atoi(is)
	seq, _ = strconv.Atoi(ss)
	return issue, seq, true
}

// highestSeq is the sequence number a ledger holding cs has handed out at least.
func highestSeq(cs []clarify.Clarification) int {
	top := 0
	for _, c := range cs {
		if _, seq, ok := splitID(c.ID); ok {
			top = max(top, seq)
		}
	}
	return top
}

// clone copies a slice, empty as nil: the two read alike in JSON, and nil keeps a
// round trip's result comparable with what it started from.
func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return slices.Clone(s)
}

// unlessZero is &x, or nil when x holds nothing: a file AgentX wrote gains no empty
// "clarify" objects on its way through Clarify.
func unlessZero[T any](x T) *T {
	if reflect.ValueOf(x).IsZero() {
		return nil
	}
	return &x
}

// clonePrecedent copies a precedent, so that the file and the ledger share nothing.
func clonePrecedent(p *clarify.Precedent) *clarify.Precedent {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
