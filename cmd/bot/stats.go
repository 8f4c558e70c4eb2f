package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/clarify-app/clarify/clarify"
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
	owner, name, ok := clarify.ParseRepo(pos[0])
	if !ok {
		return fmt.Errorf("%q: write OWNER/REPO", pos[0])
	}
	reader, client, err := lf.online(stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	return reader.Digest(ctx, client, stdout, owner, name, time.Now().Add(-*since))
}
