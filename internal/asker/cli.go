package asker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
)

// Door is one command line's way in (bot, or gh clarify): where it writes, and how it
// finds the caller's token, the app and its keys.
type Door struct {
	// Prog is how the command is typed before its name: "bot" or "gh clarify".
	Prog           string
	Env            Env
	Stdout, Stderr io.Writer
	// DefaultSlug is the App's slug where neither --app, CLARIFY_APP_SLUG nor the
	// repository's config names whom Clarify writes as.
	DefaultSlug string
	// Transport, Now and Sleep are handed to the client (nil: the real ones); tests set them.
	Transport http.RoundTripper
	Now       func() time.Time
	Sleep     func(ctx context.Context, d time.Duration) error
}

// common are the flags every asker's command takes (json only those withJSON adds).
type common struct {
	*cli.Command
	app  *string
	json *bool
}

// flags makes the command line of name: its summary, its form (after the program's
// name) and the details of its help.
func (d Door) flags(name, summary, form, details string) common {
	cmd := cli.New(name, summary, d.Prog+" "+form, details)
	return common{Command: cmd, app: d.appFlag(cmd)}
}

// appFlag adds -app, the slug of the app whose comments are believed, to cmd.
func (d Door) appFlag(cmd *cli.Command) *string {
	return cmd.Flags.String("app", d.Env.Getenv("CLARIFY_APP_SLUG"), "the slug of the app Clarify runs as (github.com/apps/SLUG, no [bot]): "+
		"only comments by SLUG[bot] are believed. Unset, each repository's .github/clarify.yml says: the workflow "+
		"(github-actions) where it lists verify_keys, else the App "+d.DefaultSlug+"; CLARIFY_APP_SLUG sets it too")
}

// withJSON adds --json, for the commands that print a record: the others (mcp) refuse it
// rather than take it and print the same.
func (c common) withJSON() common {
	c.json = c.Flags.Bool("json", false, "print the record as JSON")
	return c
}

// client builds the client the flags say, and says whether its asks go as dispatches
// because a comment of this caller's would start no run (CommentStartsNoRun).
func (d Door) client(c common) (*Client, bool, error) {
	if err := CheckSlug(*c.app); err != nil {
		return nil, false, c.Usagef("%v", err)
	}
	token, source, err := d.Env.Token()
	if err != nil {
		return nil, false, err
	}
	api, _, err := APIFromEnv(d.Env.Getenv)
	if err != nil {
		return nil, false, err
	}
	cl, err := New(Options{API: api, Token: token, Slug: *c.app, DefaultSlug: d.DefaultSlug,
		Transport: d.Transport, Now: d.Now, Sleep: d.Sleep, Notes: d.Stderr})
	// Unset, the slug is found per repository.
	return cl, CommentStartsNoRun(d.Env.Getenv, token, source), err
}

// exit reports err and returns the exit code, as every bot command does (internal/cli),
// under the door's name ("gh clarify ask: …"), but ExitCannotVerify for blocks the client
// cannot verify (failed).
func (d Door) exit(name string, err error) int {
	code := cli.ExitAs(d.Stderr, d.Prog, name, err)
	if code == ExitError {
		return failed(err)
	}
	return code
}

// parseIssue reads OWNER/REPO#N, the argument of c.
func (c common) parseIssue(s string) (clarify.IssueRef, error) {
	ref, ok := clarify.ParseIssueRef(s)
	if !ok {
		return ref, c.Usagef("%q: write the issue as OWNER/REPO#N", s)
	}
	return ref, nil
}

// signalContext is a context that ends on Ctrl-C, so a long wait stops cleanly.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// printRecords prints records as JSON (one record, or a list) or as lines for people.
func (d Door) printRecords(asJSON, one bool, recs ...clarify.AskRecord) error {
	if asJSON {
		enc := json.NewEncoder(d.Stdout)
		enc.SetIndent("", "  ")
		if one && len(recs) == 1 {
			return enc.Encode(recs[0])
		}
		return enc.Encode(recs)
	}
	for _, r := range recs {
		fmt.Fprint(d.Stdout, recordText(r))
	}
	return nil
}

// recordText is a record for people: one line, then what was said and decided.
func recordText(r clarify.AskRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s", r.ID, r.Status)
	if r.Outcome != "" && r.Outcome != r.Status {
		fmt.Fprintf(&b, " (%s)", r.Outcome)
	}
	if r.Status != clarify.StatusPosted { // a posted record has no round, asker or target yet
		fmt.Fprintf(&b, "  round %d  %s → %s", r.Round, r.Asker, r.Target)
	}
	if r.Ref != "" {
		fmt.Fprintf(&b, "  ref %s", r.Ref)
	}
	b.WriteString("\n")
	choice := ""
	if r.Choice != nil {
		choice = r.Choice.Key + ") " + r.Choice.Text
	}
	for _, f := range []struct{ name, text string }{{"topic", r.Topic}, {"question", r.Question}, {"answer", r.Answer},
		{"decision", r.Decision}, {"choice", choice}, {"next", r.Next}, {"url", r.URL}} {
		if f.text != "" {
			fmt.Fprintf(&b, "  %s: %s\n", f.name, strings.Join(strings.Fields(f.text), " "))
		}
	}
	return b.String()
}

// Commands are the asker's commands as a program's table lists them (bot's and gh
// clarify's), each run through d with the streams it is given.
func Commands(d Door) []cli.Entry {
	row := func(name, synopsis, summary string, run func(Door, []string) int, exits []cli.ExitCode) cli.Entry {
		return cli.Entry{Name: name, Synopsis: synopsis, Summary: summary, Exits: exits, Run: func(args []string, std cli.Std) error {
			return cli.Code(run(d.With(std), args))
		}}
	}
	return []cli.Entry{
		row("ask", "OWNER/REPO#N TARGET QUESTION", "ask a question as an agent, with your own token; prints its id", Door.Ask, takenExits),
		row("wait", "OWNER/REPO#N (CLR-… | --ref R)", "wait until it is answered or settled; its exit code says how", Door.Wait, waitExits),
		row("status", "OWNER/REPO#N [CLR-… | --ref R]", "the issue's clarifications, from the app's own records", Door.Status, statusExits),
		row("resolve", "OWNER/REPO#N CLR-… [DECISION]", "settle your clarification (without a decision, the last answer stands)", Door.Resolve, takenExits),
		row("followup", "OWNER/REPO#N CLR-… QUESTION", "ask its next round, once the last one is answered", Door.Followup, takenExits),
		row("abandon", "OWNER/REPO#N CLR-…", "withdraw your clarification", Door.Abandon, takenExits),
		row("inbox", "[--for @WHO] [--org ORG | --repo R ...]", "every open question awaiting you, a login or a team, oldest first", Door.Inbox, nil),
	}
}

// takenExits are the exit codes of a command Clarify must take (ask and the settling
// commands) beyond every command's.
var takenExits = []cli.ExitCode{
	{Code: cli.ExitOK, Means: "taken: Clarify took it, and its record (ask: its id) is printed"},
	{Code: ExitError, Means: "refused (its error code on stdout; --json: {\"code\": …, \"error\": …}; Clarify's reason on stderr), or failed"},
	{Code: ExitPosted, Means: "sent but not taken in time: it may still be taken, and its ref finds it"},
	cannotVerify,
}

// cannotVerify is every asker's command's exit code for Clarify's comments it cannot verify.
var cannotVerify = cli.ExitCode{Code: ExitCannotVerify, Means: "cannot-verify: Clarify's comments are there but cannot be verified; stderr says what to fix"}

// statusExits are a status read's exit codes beyond every command's.
var statusExits = []cli.ExitCode{
	{Code: ExitError, Means: "failed: unknown-clarification for an id no ask can become, among others"},
	{Code: ExitPosted, Means: "not taken by Clarify yet: the posted record of the id or ref asked about is printed"},
	cannotVerify,
}

// waitExits are a wait's exit codes, one per outcome (ExitCode).
var waitExits = []cli.ExitCode{
	{Code: ExitAnswered, Means: "answered or resolved"},
	{Code: ExitFallback, Means: "resolved by its fallback after a timeout"},
	{Code: ExitAbandoned, Means: "abandoned"},
	{Code: ExitStillOpen, Means: "the timeout passed with it still open (the record as it stands is printed)"},
	{Code: ExitPosted, Means: "the timeout passed before Clarify took the ask that may become it (its posted record is printed)"},
	{Code: ExitError, Means: "failed: unknown-clarification for an id no ask can become, among others"},
	cannotVerify,
}

// With is d writing to std's streams.
func (d Door) With(std cli.Std) Door {
	d.Stdout, d.Stderr = std.Out, std.Err
	return d
}
