package readcmd

import (
	"context"
	"io"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/ledger"
)

const statsDetails = `Reads the ledgers in the repository's issues updated within -since, through GitHub's API:
totals by status, rounds on average, time to a first answer, escalations and fallbacks
taken. Read-only. GITHUB_TOKEN authenticates (any token that can read the repository's
issues). It costs one request per 100 issues listed, and one per issue read (more for
issues of over 100 comments).`

// Stats runs `bot stats`: a repository's digest.
func Stats(args []string, stdout, stderr io.Writer) error {
	lf := newLedgerFlags(cli.New("stats", "Print a digest of a repository's clarifications.", "bot stats [flags] OWNER/REPO", statsDetails), true)
	since := ledger.DigestSinceFlag(lf.Flags)
	pos, err := lf.Parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return lf.Usagef("give one repository, OWNER/REPO")
	}
	owner, name, ok := clarify.ParseRepo(pos[0])
	if !ok {
		return lf.Usagef("%q: give the repository as OWNER/REPO", pos[0])
	}
	reader, client, err := lf.online(stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	return reader.Digest(ctx, client, stdout, owner, name, time.Now().Add(-*since))
}
