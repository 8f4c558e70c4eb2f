package readcmd

import (
	"context"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// Reach is how a read command reaches GitHub and whom it believes there: all that differs
// between bot's read commands (Keyed) and gh clarify's (asker.Door.Reach).
type Reach struct {
	// Prog is how a command is typed before its name: "bot" or "gh clarify".
	Prog string
	// Auth is the paragraph of help that says what authenticates the reads.
	Auth string
	// Flags adds the reach's flags to cmd, and returns how to read once they are parsed,
	// with notes to std.Err.
	Flags func(cmd *cli.Command, std cli.Std) Source
	// Files are the ledger command's commands on AgentX ledger files (export, import), set
	// where the reach holds the ledger key that only the operator has (bot's). With them,
	// ledger also reads a status comment's body from a FILE (Source.File).
	Files map[string]func(args []string, std cli.Std) error
}

// Source reads for one command line whose flags are parsed.
type Source struct {
	// Open opens the reader of a repository, through GitHub's API.
	Open func(ctx context.Context, owner, repo string) (Reader, error)
	// File reads the ledger in a status comment's body (ledger.PeopleReader.ReadFileBody);
	// nil unless the reach takes files.
	File func(read func() ([]byte, error), issue string) (clarify.Ledger, clarify.IssueRef, error)
}

// Reader is what a read command reads a repository with.
type Reader struct {
	ledger.PeopleReader
	Client *github.Client
	// Now is the clock that a digest's -since counts back from.
	Now func() time.Time
}

const keyedAuth = `GITHUB_TOKEN authenticates: a token that can read the repository's issues (unset, public
repositories only, at 60 requests an hour). The app's own account is SLUG[bot] (-app).`

// Keyed is bot's reach: GITHUB_TOKEN against -api, the app's account from -app, and the
// ledger key from -key or the environment (with none, ledgers are read unchecked, and
// stderr says so). A function, so that gh clarify, which never calls it, links none of it.
func Keyed() Reach {
	return Reach{Prog: "bot", Auth: keyedAuth, Flags: keyedSource,
		Files: map[string]func([]string, cli.Std) error{"export": ledgerExport, "import": ledgerImport}}
}

func keyedSource(cmd *cli.Command, std cli.Std) Source {
	lf := newLedgerFlags(cmd, true)
	stderr := std.Err
	return Source{
		Open: func(context.Context, string, string) (Reader, error) {
			p, client, err := lf.online(stderr)
			return Reader{PeopleReader: p, Client: client, Now: time.Now}, err
		},
		File: func(read func() ([]byte, error), issue string) (clarify.Ledger, clarify.IssueRef, error) {
			keys, err := ledger.KeyringFromEnv(*lf.key)
			if err != nil {
				return clarify.Ledger{}, clarify.IssueRef{}, err
			}
			return ledger.NewPeopleReader(*lf.app, keys, stderr, tokenHint).ReadFileBody(read, issue)
		},
	}
}

// ledgerFlags is the command line of one of bot's ledger forms, with the flags the forms
// (and stats) share.
type ledgerFlags struct {
	*cli.Command
	key      *string
	api, app *string
}

func newLedgerFlags(cmd *cli.Command, online bool) ledgerFlags {
	fs := cmd.Flags
	lf := ledgerFlags{Command: cmd}
	lf.key = fs.String("key", "", "ledger MAC key (default: CLARIFY_LEDGER_KEY, else drawn from GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE)")
	if online {
		lf.api = fs.String("api", cli.EnvOr("GITHUB_V3_API_URL", ghtransport.DefaultAPIURL), "GitHub's REST API URL; GITHUB_V3_API_URL sets the default")
		lf.app = fs.String("app", cli.EnvOr("CLARIFY_APP_SLUG", ledger.DefaultAppSlug), "the app's slug: only comments by SLUG[bot] are its own; CLARIFY_APP_SLUG sets the default")
	}
	return lf
}

// online returns what reading through the API takes: the reader, its notes to stderr,
// and the client.
func (lf ledgerFlags) online(stderr io.Writer) (ledger.PeopleReader, *github.Client, error) {
	keys, err := ledger.KeyringFromEnv(*lf.key)
	if err != nil {
		return ledger.PeopleReader{}, nil, err
	}
	client, err := ghtransport.TokenClient(*lf.api, os.Getenv("GITHUB_TOKEN"))
	return ledger.NewPeopleReader(*lf.app, keys, stderr, tokenHint), client, err
}

// tokenHint says what to do about a refusal that a missing token explains.
func tokenHint(err error) string { return ghtransport.TokenHint(err, os.Getenv("GITHUB_TOKEN") != "") }

// Commands are the rows of ledger and stats in a program's table, read as reach says.
func Commands(reach Reach) []cli.Entry {
	ledgerRow := cli.Entry{Name: "ledger", Synopsis: "OWNER/REPO#N [--json]",
		Summary: "print an issue's ledger, read through GitHub's API"}
	if reach.Files != nil {
		ledgerRow.Synopsis = "(OWNER/REPO#N | FILE) [--json] | export | import"
		ledgerRow.Summary = "print an issue's ledger, or move it to or from an AgentX ledger file"
		ledgerRow.Subcommands = slices.Sorted(maps.Keys(reach.Files))
	}
	ledgerRow.Run = func(args []string, std cli.Std) error { return Ledger(args, reach, std) }
	return []cli.Entry{ledgerRow, {Name: "stats", Synopsis: "OWNER/REPO [--since 720h]",
		Summary: "a digest of a repository's clarifications, read through GitHub's API",
		Run:     func(args []string, std cli.Std) error { return Stats(args, reach, std) }}}
}
