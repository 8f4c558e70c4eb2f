package asker

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ", ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

const askSummary = "Ask a question as an agent, with your own token, and print its id."

const askDetails = `Asks TARGET (@login, @org/team, or a role's name) QUESTION in the issue, with your own
token (GITHUB_TOKEN, else GH_TOKEN, else gh's): as a comment, or as a repository_dispatch
of type clarify with --dispatch or --state (a comment cannot carry state), or where a
comment would start no run (in a job, the workflow's own token given as GITHUB_TOKEN or
GH_TOKEN). Waits until Clarify has taken it and prints its id (--json: its record).
A refusal exits 1 and prints its error code (Clarify's reason on stderr). An ask not
taken in time exits 5: it was sent, with a ref (--ref, else one made up: ask-…) that
stderr and --json's record give; bot status --ref finds it once taken, and asking again
with the same --ref is the same ask. Blocks that claim to be Clarify's but cannot be
verified (no verify_keys, another key, another app) exit 6 at once, with the fix on stderr.
An ask with the --ref of an open clarification of yours is that one: nothing is asked twice.`

// Ask runs `ask`: 0 with the id printed, 1 refused or failed, 2 usage, 5 not taken in time,
// 6 cannot verify Clarify's blocks.
func (d Door) Ask(args []string) int {
	c := d.flags("ask", askSummary, "ask [flags] OWNER/REPO#N TARGET QUESTION", askDetails).withJSON()
	var a Ask
	var options stringList
	c.Flags.StringVar(&a.Topic, "topic", "", "the question's topic (what the repository's decisions are filed under)")
	c.Flags.Var(&options, "option", "an option to choose from (repeatable: a), b), …)")
	c.Flags.StringVar(&a.Fallback, "fallback", "", "the option (its letter) taken if nobody answers in time")
	c.Flags.StringVar(&a.Expect, "expect", "", "the kind of answer it takes: yes/no, number, number 1..100, date, option or text")
	c.Flags.IntVar(&a.Needs, "needs", 0, "how many people must answer it (and agree, for a typed answer); default one")
	c.Flags.BoolVar(&a.NonBlocking, "non-blocking", false, "the asker goes on meanwhile")
	c.Flags.StringVar(&a.Ref, "ref", "", "your own correlation id (at most 200 characters), given back in the record and the wake-up")
	c.Flags.StringVar(&a.State, "state", "", "an opaque string (at most 8 KiB) given back in the wake-up and the record; anyone who can read the issue can read it")
	c.Flags.BoolVar(&a.Dispatch, "dispatch", false, "send the ask as a repository_dispatch instead of a comment")
	c.Flags.DurationVar(&a.Timeout, "timeout", DefaultTakeTimeout, "how long to wait for Clarify to take the ask")
	pos, err := c.Parse(args, d.Stdout)
	if err == nil && len(pos) != 3 {
		err = c.Usagef("give OWNER/REPO#N TARGET QUESTION (quote the question)")
	}
	if err == nil {
		a.Issue, err = c.parseIssue(pos[0])
	}
	if err != nil {
		return d.exit("ask", err)
	}
	a.Target, a.Question, a.Options = pos[1], pos[2], options
	cl, noRun, err := d.client(c)
	if err != nil {
		return d.exit("ask", err)
	}
	a.Dispatch = a.Dispatch || noRun
	ctx, stop := signalContext()
	defer stop()
	rec, err := cl.Ask(ctx, a)
	return d.taken(c, "ask", rec, err, rec.ID+"\n")
}

// refused prints a refusal's code on stdout (--json: code and message), and why on stderr.
func (d Door) refused(c common, name string, e *Error) int {
	if *c.json {
		b, _ := json.Marshal(map[string]string{"code": string(e.Code), "error": e.Msg})
		fmt.Fprintln(d.Stdout, string(b))
	} else {
		fmt.Fprintln(d.Stdout, e.Code)
	}
	fmt.Fprintf(d.Stderr, "%s %s: %v\n", d.Prog, name, e)
	return failed(e)
}

const waitSummary = "Wait until a clarification is answered or settled, and print its record."

const waitDetails = `Blocks until the clarification is answered or settled, and prints its record. Reads are
conditional (a 304 while nothing changed costs no rate limit), further apart the longer
nothing happens, up to a minute. An escalation does not end the wait: it is told on stderr.
--ref finds the clarification by its ask's ref instead of its id. Nor does an ask Clarify
has not taken yet that may become it (a ref, or an id past the issue's last while enough
asks in the issue wait to be taken): told on stderr once, it is waited for. Exit codes: 0
answered or resolved, 3 resolved by its fallback after a timeout, 4 abandoned, 124 the
timeout passed with it still open (the record as it stands is printed), 5 the timeout
passed before Clarify took it (the record, status posted, is printed), 6 blocks that claim
to be Clarify's cannot be verified (stderr says what to fix), 1 an error (an id no ask can
become: unknown-clarification), 2 a usage error.`

// Wait runs `wait`, with an exit code per outcome (ExitCode).
func (d Door) Wait(args []string) int {
	c := d.flags("wait", waitSummary, "wait [flags] OWNER/REPO#N (CLR-… | --ref REF)", waitDetails).withJSON()
	timeout := c.Flags.Duration("timeout", 2*time.Hour, "how long to wait")
	ref := c.Flags.String("ref", "", "the clarification whose ask carried this ref, instead of a CLR-…")
	pos, err := c.Parse(args, d.Stdout)
	var issue clarify.IssueRef
	var id string
	if err == nil {
		issue, id, err = c.which(pos, *ref, true)
	}
	if err != nil {
		return d.exit("wait", err)
	}
	cl, _, err := d.client(c)
	if err != nil {
		return d.exit("wait", err)
	}
	ctx, stop := signalContext()
	defer stop()
	rec, err := cl.Wait(ctx, issue, id, *timeout)
	code := ExitCode(rec, err)
	switch code {
	case ExitError, ExitCannotVerify:
		return d.exit("wait", err)
	case ExitStillOpen:
		fmt.Fprintf(d.Stderr, "%s wait: %s is still %s after %s\n", d.Prog, rec.ID, rec.Status, *timeout)
	case ExitPosted:
		fmt.Fprintf(d.Stderr, "%s wait: %v\n", d.Prog, err)
	}
	if err := d.printRecords(*c.json, true, rec); err != nil {
		return d.exit("wait", err)
	}
	return code
}

const statusSummary = "Print the records of an issue's clarifications, or of one."

const statusDetails = `Prints the records of the issue's clarifications, or of one (by its id, or with --ref by
its ask's ref), read from the app's own signed ledger: what a wake-up says can be checked
here. Exit codes: 0 read, 5 not taken by Clarify yet (its record, status posted, is
printed), 6 blocks that claim to be Clarify's cannot be verified (stderr says what to fix),
1 an error (unknown-clarification: an id no ask can become), 2 a usage error.`

// Status runs `status`.
func (d Door) Status(args []string) int {
	c := d.flags("status", statusSummary, "status [flags] OWNER/REPO#N [CLR-… | --ref REF]", statusDetails).withJSON()
	ref := c.Flags.String("ref", "", "the clarification whose ask carried this ref")
	pos, err := c.Parse(args, d.Stdout)
	var issue clarify.IssueRef
	var id string
	if err == nil {
		issue, id, err = c.which(pos, *ref, false)
	}
	if err != nil {
		return d.exit("status", err)
	}
	cl, _, err := d.client(c)
	if err != nil {
		return d.exit("status", err)
	}
	ctx, stop := signalContext()
	defer stop()
	recs, err := cl.Status(ctx, issue, id)
	code := ExitAnswered
	switch {
	case errors.Is(err, ErrNotTaken):
		fmt.Fprintf(d.Stderr, "%s status: %v\n", d.Prog, err)
		code = ExitPosted
	case err != nil:
		return d.exit("status", err)
	}
	if err := d.printRecords(*c.json, id != "", recs...); err != nil {
		return d.exit("status", err)
	}
	return code
}
