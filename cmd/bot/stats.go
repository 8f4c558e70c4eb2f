package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/render"
)

const statsUsage = `usage: bot stats [flags] OWNER/REPO

A digest of a repository's clarifications, read through GitHub's API from the ledgers in
the issues updated within -since: totals by status, rounds on average, time to a first
answer, escalations and fallbacks taken. Read-only. GITHUB_TOKEN authenticates (any token
that can read the repository's issues). It costs one request per 100 issues listed, and one
per issue read (more for issues of over 100 comments).

flags:
`

// defaultStatsSince is how far back a digest looks by default: a month of activity.
const defaultStatsSince = 30 * 24 * time.Hour

// statsCmd prints a repository's digest.
func statsCmd(args []string, stdout, stderr io.Writer) error {
	lf := newLedgerFlags("stats", statsUsage, stderr, true)
	since := lf.fs.Duration("since", defaultStatsSince, "read the issues updated within this long (a Go duration: 720h is 30 days)")
	pos, err := lf.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		lf.fs.Usage()
		return errors.New("give one repository, OWNER/REPO")
	}
	owner, name, ok := strings.Cut(pos[0], "/")
	if !ok || owner == "" || name == "" || strings.ContainsAny(name, "/#") {
		return fmt.Errorf("%q: write OWNER/REPO", pos[0])
	}
	keys, client, err := lf.online()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	from := time.Now().Add(-*since)
	issues, err := handlers.ListUpdated(ctx, client, owner, name, from)
	if err != nil {
		return fmt.Errorf("%w%s", err, tokenHint(err))
	}
	if !keys.Given() {
		fmt.Fprintln(stderr, ledgerUncheckedNote)
	}
	reader := handlers.LedgerReader{Bot: *lf.app + "[bot]", Keys: keys, Unchecked: !keys.Given()}
	failed := 0
	ledgers := reader.ReadIssues(ctx, client, owner, name, issues, func(number int, err error) {
		failed++
		fmt.Fprintf(stderr, "%s/%s#%d: %v%s\n", owner, name, number, err, tokenHint(err))
	})
	title := fmt.Sprintf("%s/%s since %s", owner, name, from.UTC().Format("2006-01-02"))
	fmt.Fprint(stdout, render.Stats(title, clarify.Summarize(ledgers...)))
	if mem, err := reader.ReadDecisions(ctx, client, owner, name); err != nil {
		fmt.Fprintf(stderr, "the decisions of %s/%s could not be read: %v\n", owner, name, err)
	} else {
		fmt.Fprint(stdout, render.DecisionCounts(mem))
	}
	fmt.Fprintf(stdout, "\n%d issue(s) updated since then, %d with clarifications", len(issues), len(ledgers))
	if failed > 0 {
		fmt.Fprintf(stdout, ", %d whose ledger could not be read (see above)", failed)
	}
	fmt.Fprintln(stdout, ".")
	return nil
}
