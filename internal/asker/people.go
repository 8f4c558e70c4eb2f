package asker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// people is the app's reader for people (bot ledger, bot stats) of owner/repo over the
// client's token, believing whom the client believes there (readerOf).
func (c *Client) people(ctx context.Context, d Door, owner, repo string) (ledger.PeopleReader, error) {
	r, err := c.readerOf(ctx, owner, repo)
	return ledger.PeopleReader{LedgerReader: r, Slug: strings.TrimSuffix(r.Bot, "[bot]"), Notes: d.Stderr,
		Hint: func(err error) string { return ghtransport.TokenHint(err, true) }}, err
}

const ledgerSummary = "Print an issue's ledger, read through GitHub's API as the app reads it."

// Ledger runs `ledger` (gh clarify ledger): an issue's whole ledger for people, or with
// --json as an AgentX ledger file, as bot ledger OWNER/REPO#N prints it.
func (d Door) Ledger(args []string) int {
	c := d.flags("ledger", ledgerSummary, "ledger [flags] OWNER/REPO#N", "").withJSON()
	pos, err := c.Parse(args, d.Stdout)
	if err == nil && len(pos) != 1 {
		err = c.Usagef("give one issue, OWNER/REPO#N")
	}
	var issue clarify.IssueRef
	if err == nil {
		issue, err = c.parseIssue(pos[0])
	}
	var cl *Client
	if err == nil {
		cl, _, err = d.client(c)
	}
	if err != nil {
		return d.exit("ledger", err)
	}
	ctx, stop := signalContext()
	defer stop()
	p, err := cl.people(ctx, d, issue.Owner, issue.Repo)
	var l clarify.Ledger
	if err == nil {
		l, err = p.ReadIssue(ctx, cl.gh, issue)
	}
	switch {
	case err != nil:
	case *c.json:
		err = agentx.Write(d.Stdout, agentx.FromLedger(l, issue.FullName()))
	default:
		fmt.Fprint(d.Stdout, render.LedgerText(issue.String(), l))
	}
	return d.exit("ledger", err)
}

const statsSummary = "Print a digest of a repository's clarifications."

// Stats runs `stats` (gh clarify stats): the digest bot stats prints.
func (d Door) Stats(args []string) int {
	c := d.flags("stats", statsSummary, "stats [flags] OWNER/REPO", "")
	since := ledger.DigestSinceFlag(c.Flags)
	pos, err := c.Parse(args, d.Stdout)
	if err == nil && len(pos) != 1 {
		err = c.Usagef("give one repository, OWNER/REPO")
	}
	var owner, name string
	if err == nil {
		var ok bool
		if owner, name, ok = clarify.ParseRepo(pos[0]); !ok {
			err = c.Usagef("%q: give the repository as OWNER/REPO", pos[0])
		}
	}
	var cl *Client
	if err == nil {
		cl, _, err = d.client(c)
	}
	if err != nil {
		return d.exit("stats", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	p, err := cl.people(ctx, d, owner, name)
	if err == nil {
		err = p.Digest(ctx, cl.gh, d.Stdout, owner, name, cl.now().Add(-*since))
	}
	return d.exit("stats", err)
}
