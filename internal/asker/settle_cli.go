package asker

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// settleForm is how one settling command is typed: its summary and what follows the id.
type settleForm struct {
	summary, text string
	// need says whether text is required (a followup's question) or optional.
	need bool
}

var settleForms = map[clarify.CommandKind]settleForm{
	clarify.CmdResolve:  {"Settle your clarification with a decision (without one, the last answer stands).", "[DECISION]", false},
	clarify.CmdFollowup: {"Ask the next round of your clarification, once the last one is answered.", "QUESTION", true},
	clarify.CmdAbandon:  {"Withdraw your clarification.", "[REASON]", false},
}

const settleDetails = `Gives the command in the issue with your own token, as a comment (/clarify %s CLR-…) or,
with --dispatch or where a comment would start no run, as a repository_dispatch of type
clarify; then waits until Clarify has taken it and prints the clarification's record
(--json: as JSON). Exit codes: 0 taken, 1 refused (its error code on stdout, Clarify's
reason on stderr) or failed, 2 a usage mistake (a malformed id, or one of another issue,
is refused before any request), 5 sent but not taken in time, 6 blocks that claim to be
Clarify's cannot be verified (stderr says what to fix).`

// Resolve runs `resolve OWNER/REPO#N CLR-… [DECISION]`.
func (d Door) Resolve(args []string) int { return d.settle(clarify.CmdResolve, args) }

// Followup runs `followup OWNER/REPO#N CLR-… QUESTION`.
func (d Door) Followup(args []string) int { return d.settle(clarify.CmdFollowup, args) }

// Abandon runs `abandon OWNER/REPO#N CLR-… [REASON]`.
func (d Door) Abandon(args []string) int { return d.settle(clarify.CmdAbandon, args) }

// settle runs one settling command: parse, Client.Settle, print.
func (d Door) settle(kind clarify.CommandKind, args []string) int {
	name, f := string(kind), settleForms[kind]
	c := d.flags(name, f.summary, name+" [flags] OWNER/REPO#N CLR-… "+f.text, fmt.Sprintf(settleDetails, name)).withJSON()
	s := Settle{Kind: kind}
	c.Flags.BoolVar(&s.Dispatch, "dispatch", false, "send the command as a repository_dispatch instead of a comment")
	c.Flags.DurationVar(&s.Timeout, "timeout", DefaultTakeTimeout, "how long to wait for Clarify to take it")
	pos, err := c.Parse(args, d.Stdout)
	if err == nil {
		err = c.settleArgs(&s, f, pos)
	}
	if err != nil {
		return d.exit(name, err)
	}
	cl, noRun, err := d.client(c)
	if err != nil {
		return d.exit(name, err)
	}
	s.Dispatch = s.Dispatch || noRun
	ctx, stop := signalContext()
	defer stop()
	rec, err := cl.Settle(ctx, s)
	return d.taken(c, name, rec, err, recordText(rec))
}

// settleArgs reads OWNER/REPO#N CLR-… and the text into s; a bad id is a usage mistake.
func (c common) settleArgs(s *Settle, f settleForm, pos []string) error {
	if len(pos) < 2 || len(pos) > 3 || (f.need && len(pos) != 3) {
		return c.Usagef("give OWNER/REPO#N CLR-… %s (quote the text)", f.text)
	}
	issue, err := c.parseIssue(pos[0])
	if err != nil {
		return err
	}
	if err := CheckID(issue, pos[1]); err != nil {
		return c.Usagef("%v", err)
	}
	s.Issue, s.ID = issue, pos[1]
	if len(pos) == 3 {
		s.Text = pos[2]
	}
	return nil
}

// taken prints what an ask or a settle came to and returns its exit code: 0 taken (text
// printed, or the record with --json), 1 refused (refused) or failed, ExitPosted sent but
// not taken in time (the record as it stands, an ask's with its ref: an empty id line, or
// the record with --json).
func (d Door) taken(c common, name string, rec clarify.AskRecord, err error, text string) int {
	var refusal *Error
	switch {
	case errors.As(err, &refusal):
		return d.refused(c, name, refusal)
	case errors.Is(err, ErrNotTaken):
		fmt.Fprintf(d.Stderr, "%s %s: %v\n", d.Prog, name, err)
		if *c.json && rec.V != 0 {
			_ = d.printRecords(true, true, rec)
		} else {
			fmt.Fprintln(d.Stdout, rec.ID)
		}
		return ExitPosted
	case err != nil:
		return d.exit(name, err)
	case *c.json:
		return d.exit(name, d.printRecords(true, true, rec))
	}
	fmt.Fprint(d.Stdout, text)
	return ExitAnswered
}

// which reads the issue and the clarification a wait or status names (OWNER/REPO#N and a
// CLR-…, checked, or --ref's ref); the id is "" for none, which only a status (need false)
// may leave out.
func (c common) which(pos []string, ref string, need bool) (clarify.IssueRef, string, error) {
	switch {
	case len(pos) < 1 || len(pos) > 2 || (need && (len(pos) == 1) == (ref == "")):
		return clarify.IssueRef{}, "", c.Usagef("give OWNER/REPO#N CLR-…, or OWNER/REPO#N --ref REF")
	case len(pos) == 2 && ref != "":
		return clarify.IssueRef{}, "", c.Usagef("give a CLR-… or --ref, not both")
	case isID(ref):
		return clarify.IssueRef{}, "", c.Usagef("--ref %q reads as an id: give it as CLR-…", ref)
	}
	issue, err := c.parseIssue(pos[0])
	if err != nil || len(pos) == 1 {
		return issue, strings.TrimSpace(ref), err
	}
	if err := CheckID(issue, pos[1]); err != nil {
		return issue, "", c.Usagef("%v", err)
	}
	return issue, pos[1], nil
}
