package readcmd

import (
	"context"
	"errors"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
)

const statsDetails = `Reads the ledgers in the repository's issues updated within -since, through GitHub's API:
totals by status, rounds on average, time to a first answer, escalations and fallbacks
taken. Read-only. It costs one request per 100 issues listed, and one per issue read (more
for issues of over 100 comments).`

// Stats runs `stats` as reach reads: a repository's digest.
func Stats(args []string, reach Reach, std cli.Std) error {
	cmd := cli.New("stats", "Print a digest of a repository's clarifications.", reach.Prog+" stats [flags] OWNER/REPO", statsDetails+"\n\n"+reach.Auth)
	src := reach.Flags(cmd, std)
	since := sinceFlag(cmd)
	pos, err := cmd.Parse(args, std.Out)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmd.Usagef("give one repository, OWNER/REPO")
	}
	owner, name, ok := clarify.ParseRepo(pos[0])
	if !ok {
		return cmd.Usagef("%q: give the repository as OWNER/REPO", pos[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r, err := src.Open(ctx, owner, name)
	if err != nil {
		return err
	}
	return r.Digest(ctx, r.Client, std.Out, owner, name, r.Now().Add(-*since))
}

// defaultSince is how far back a digest looks by default: a month of activity.
const defaultSince = 30 * 24 * time.Hour

// sinceFlag adds stats' -since: how far back the digest looks. A value that is no positive
// duration is refused as the flag is parsed, so it is a usage mistake naming the flag.
func sinceFlag(cmd *cli.Command) *time.Duration {
	since := positive(defaultSince)
	cmd.Flags.Var(&since, "since", "read the issues updated within this long (a Go `duration`: 720h is 30 days)")
	return (*time.Duration)(&since)
}

// positive is the -since flag's value: a positive duration.
type positive time.Duration

func (s *positive) String() string { return time.Duration(*s).String() }

func (s *positive) Set(v string) error {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return errors.New("give a Go duration such as 720h")
	case d <= 0:
		return errors.New("give how far back to look, a positive duration such as 720h")
	}
	*s = positive(d)
	return nil
}
