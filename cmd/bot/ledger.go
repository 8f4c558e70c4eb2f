package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/render"
)

const ledgerUsage = `usage: bot ledger [flags] OWNER/REPO#N    read an issue's ledger through GitHub's API
       bot ledger [flags] FILE            read the ledger in a status comment's body (- for stdin)
       bot ledger export OWNER/REPO#N [-o FILE]
       bot ledger import [-status] FILE   (bot ledger export -h, bot ledger import -h)

Read-only: it never writes to GitHub. OWNER/REPO#N lists the issue's comments with
GITHUB_TOKEN (a token that can read the issue; unset, public repositories only, at 60
requests an hour), takes the status comment written by the app's own account
(SLUG[bot]: a look-alike by anyone else is ignored) and the archive comments its ledger
lists, and prints each clarification (id, topic, from → to, status, round), its thread
and decision, then the assumption log. -json prints it as an AgentX ledger file instead
(seed 002's schema, plus Clarify's own fields under "clarify").
FILE prints the ledger's JSON as the app keeps it (-json: as an AgentX file).

The MAC is checked under the key serve signs with: -key, else CLARIFY_LEDGER_KEY, else
the key drawn from GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE (and the keys
serve still accepts from before a rotation; give a key from clarify.previous_ledger_keys
with -key). A ledger that does not verify is an error. With no key at all the ledger is
read unchecked, and stderr says "MAC not checked: no ledger key given".

flags (before or after the argument):
`

const ledgerExportUsage = `usage: bot ledger export [flags] OWNER/REPO#N

Reads the issue's ledger through GitHub's API, as bot ledger OWNER/REPO#N does (same
GITHUB_TOKEN, keys and MAC check), and writes it as an AgentX ledger file (seed 002), at
.agentx/state/clarifications/issue-N.json under the current directory unless -o says
otherwise, taking AgentX's lock file (FILE.lock) around the write. Every AgentX field is
filled; what Clarify keeps beyond them (comment ids, options, the assumption log, the
ledger's cursor and revision…) goes under "clarify" keys, so bot ledger import gives
the same ledger back.

flags (before or after the argument):
`

const ledgerImportUsage = `usage: bot ledger import [flags] FILE

Offline and read-only: reads an AgentX ledger file (FILE, or - for stdin), checks it, and
prints the Clarify ledger it is, as JSON. It calls no API and writes no file. Fields
neither AgentX nor Clarify defines are named on stderr: they are not kept.

-status prints instead a status comment body holding that ledger, signed for its issue
with the key serve signs with (-key, CLARIFY_LEDGER_KEY, or drawn from
GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE), for an operator with write
access to paste over the app's status comment: the app trusts it because it verifies. A
ledger older (by its revision) than the last one the app wrote is rebuilt from the issue's
comments instead. The issue is the file's "clarify.repository" and issueNumber (-repo
when the file names no repository).

flags (before or after the argument):
`

// ledgerCmd runs `bot ledger`: read a ledger, or export it to or import it from an AgentX
// ledger file. main hands it no stderr, so the notes go to the process's.
func ledgerCmd(args []string, stdin io.Reader, stdout io.Writer) error {
	return ledgerRun(args, stdin, stdout, os.Stderr)
}

func ledgerRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "export":
			return ledgerExport(args[1:], stdout, stderr)
		case "import":
			return ledgerImport(args[1:], stdin, stdout, stderr)
		}
	}
	return ledgerRead(args, stdin, stdout, stderr)
}

// ledgerFlags are the flags the forms share.
type ledgerFlags struct {
	fs       *flag.FlagSet
	key      *string
	api, app *string
}

func newLedgerFlags(name, usage string, stderr io.Writer, online bool) ledgerFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	lf := ledgerFlags{fs: fs}
	lf.key = fs.String("key", "", "ledger MAC key (default: CLARIFY_LEDGER_KEY, else drawn from GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE)")
	if online {
		lf.api = fs.String("api", envOr("GITHUB_V3_API_URL", app.DefaultV3APIURL), "GitHub's REST API URL; GITHUB_V3_API_URL sets the default")
		lf.app = fs.String("app", envOr("CLARIFY_APP_SLUG", app.DefaultAppSlug), "the app's slug: only comments by SLUG[bot] are its own; CLARIFY_APP_SLUG sets the default")
	}
	return lf
}

// online returns what reading through the API takes: the keys to check ledgers under,
// and the client.
func (lf ledgerFlags) online() (render.Keyring, *github.Client, error) {
	keys, err := app.LedgerKeyring(*lf.key)
	if err != nil {
		return render.Keyring{}, nil, err
	}
	client, err := ghtransport.TokenClient(*lf.api, os.Getenv("GITHUB_TOKEN"))
	return keys, client, err
}

// parse parses flags given before and after the positional arguments: people type
// `bot ledger octo/widgets#42 -json`, and the flag package stops at the first argument.
func (lf ledgerFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := lf.fs.Parse(args); err != nil {
			return nil, err
		}
		args = lf.fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

func ledgerRead(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	lf := newLedgerFlags("ledger", ledgerUsage, stderr, true)
	issue := lf.fs.String("issue", "", "with FILE: the issue, OWNER/REPO#N, the status comment belongs to (each issue's ledger has a key of its own)")
	asJSON := lf.fs.Bool("json", false, "print an AgentX ledger file (JSON) instead")
	pos, err := lf.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("give OWNER/REPO#N, or one file holding a status comment's body (- for standard input); bot ledger -h says more")
	}
	keys, err := app.LedgerKeyring(*lf.key)
	if err != nil {
		return err
	}
	arg := pos[0]
	if ref, ok := parseLedgerIssue(arg); ok && arg != "-" && !fileExists(arg) {
		if *issue != "" {
			return errors.New("-issue goes with FILE: with OWNER/REPO#N the issue is the argument")
		}
		client, err := ghtransport.TokenClient(*lf.api, os.Getenv("GITHUB_TOKEN"))
		if err != nil {
			return err
		}
		l, err := fetchLedger(client, ref, *lf.app, keys, stderr)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeAgentX(stdout, agentx.FromLedger(l, ref.repo()))
		}
		fmt.Fprint(stdout, render.LedgerText(ref.String(), l))
		return nil
	}
	l, ref, err := readLedgerFile(arg, stdin, *issue, keys, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeAgentX(stdout, agentx.FromLedger(l, ref.repo()))
	}
	return printJSON(stdout, l)
}

// readLedgerFile reads the ledger in a status comment's body saved to a file: the form of
// `bot ledger` that needs no API.
func readLedgerFile(name string, stdin io.Reader, issue string, keys render.Keyring, stderr io.Writer) (clarify.Ledger, ledgerIssue, error) {
	var ref ledgerIssue
	if issue != "" {
		var ok bool
		if ref, ok = parseLedgerIssue(issue); !ok {
			return clarify.Ledger{}, ref, fmt.Errorf("-issue %q: write OWNER/REPO#N", issue)
		}
	}
	body, err := readInput(name, stdin, 1<<20)
	if err != nil {
		return clarify.Ledger{}, ref, err
	}
	if !keys.Given() {
		fmt.Fprintln(stderr, ledgerUncheckedNote)
	}
	reader := handlers.LedgerReader{Keys: keys, Unchecked: !keys.Given()}
	l, err := reader.ReadBody(string(body), ref.owner, ref.name, ref.number)
	return l, ref, err
}

func ledgerExport(args []string, stdout, stderr io.Writer) error {
	lf := newLedgerFlags("ledger export", ledgerExportUsage, stderr, true)
	out := lf.fs.String("o", "", "the file to write, - for stdout (default: .agentx/state/clarifications/issue-N.json)")
	pos, err := lf.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("give one issue, OWNER/REPO#N; bot ledger export -h says more")
	}
	ref, ok := parseLedgerIssue(pos[0])
	if !ok {
		return fmt.Errorf("%q: write the issue as OWNER/REPO#N", pos[0])
	}
	keys, client, err := lf.online()
	if err != nil {
		return err
	}
	l, err := fetchLedger(client, ref, *lf.app, keys, stderr)
	if err != nil {
		return err
	}
	f := agentx.FromLedger(l, ref.repo())
	if *out == "-" {
		return writeAgentX(stdout, f)
	}
	path := cmp.Or(*out, agentx.Path(ref.number))
	if err := agentx.WriteFile(path, f); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s, %s, %s\n", path, ref, render.Counted(len(l.Clarifications), "clarification"), render.Counted(len(l.Assumptions), "assumption"))
	return nil
}

func ledgerImport(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	lf := newLedgerFlags("ledger import", ledgerImportUsage, stderr, false)
	status := lf.fs.Bool("status", false, "print a signed status comment body instead of the ledger's JSON")
	repo := lf.fs.String("repo", "", "with -status: the issue's repository, OWNER/REPO, when the file names none")
	pos, err := lf.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("give one AgentX ledger file, or - for standard input; bot ledger import -h says more")
	}
	data, err := readInput(pos[0], stdin, 8<<20)
	if err != nil {
		return err
	}
	f, unknown, err := agentx.Parse(data)
	if err != nil {
		return err
	}
	if len(unknown) > 0 {
		fmt.Fprintf(stderr, "not kept: fields neither AgentX nor Clarify defines: %s\n", strings.Join(unknown, ", "))
	}
	l, err := agentx.ToLedger(f)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if !*status {
		return printJSON(stdout, l)
	}
	body, err := ledgerStatusBody(l, f.Repo(), *repo, *lf.key, stderr)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, body)
	return err
}

// ledgerStatusBody renders the status comment that would hold l, signed for its issue.
func ledgerStatusBody(l clarify.Ledger, fileRepo, flagRepo, key string, stderr io.Writer) (string, error) {
	repo := cmp.Or(fileRepo, flagRepo)
	if fileRepo != "" && flagRepo != "" && !strings.EqualFold(fileRepo, flagRepo) {
		return "", fmt.Errorf("-repo %s: the file says its issue is in %s", flagRepo, fileRepo)
	}
	ref, ok := parseLedgerIssue(repo + "#" + strconv.Itoa(l.Issue))
	if !ok {
		return "", errors.New("-status: the file names no repository: give -repo OWNER/REPO (each issue's ledger is signed with a key of its own)")
	}
	keys, err := app.LedgerKeyring(key)
	if err != nil {
		return "", err
	}
	if !keys.Given() {
		return "", errors.New("-status signs the ledger: give -key, or set CLARIFY_LEDGER_KEY, GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE as serve has them")
	}
	if len(l.Archives) > 0 {
		fmt.Fprintf(stderr, "the clarifications of %s are written into the status body, not left to be read from them\n", render.Counted(len(l.Archives), "archive comment"))
	}
	return render.SignedStatus(l, keys.Issue(ref.owner, ref.name, ref.number))
}

// ledgerIssue is one issue, as OWNER/REPO#N.
type ledgerIssue struct {
	owner, name string
	number      int
}

func parseLedgerIssue(s string) (ledgerIssue, bool) {
	repo, num, ok := strings.Cut(s, "#")
	owner, name, ok2 := strings.Cut(repo, "/")
	n, err := strconv.Atoi(num)
	if !ok || !ok2 || err != nil || n <= 0 || owner == "" || name == "" || strings.Contains(name, "/") {
		return ledgerIssue{}, false
	}
	return ledgerIssue{owner: owner, name: name, number: n}, true
}

func (r ledgerIssue) repo() string {
	if r.owner == "" {
		return ""
	}
	return r.owner + "/" + r.name
}

func (r ledgerIssue) String() string { return fmt.Sprintf("%s#%d", r.repo(), r.number) }

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// noStatusError says an issue holds no ledger of the app's: nothing was asked there.
type noStatusError string

// Error says which issue, and what may be wrong.
func (e noStatusError) Error() string { return string(e) }

// ledgerUncheckedNote is what stderr says when no key was given: the ledger printed may
// have been written by anyone.
const ledgerUncheckedNote = "MAC not checked: no ledger key given"

// fetchLedger reads an issue's whole ledger as the app does: from the first status
// comment of the app's own account, with the clarifications of the archive comments it
// lists merged in. A missing archive or one that does not verify is an error, as it makes
// the app rebuild the ledger.
func fetchLedger(client *github.Client, ref ledgerIssue, slug string, keys render.Keyring, stderr io.Writer) (clarify.Ledger, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bot := slug + "[bot]"
	reader := handlers.LedgerReader{Bot: bot, Keys: keys, Unchecked: !keys.Given()}
	got, err := reader.Read(ctx, client, ref.owner, ref.name, ref.number)
	if got.Lookalikes > 0 {
		fmt.Fprintf(stderr, "ignored %s that look like a status comment but are not by %s\n", render.Counted(got.Lookalikes, "comment"), bot)
	}
	switch {
	case errors.Is(err, handlers.ErrNoStatus):
		return clarify.Ledger{}, noStatusError(fmt.Sprintf("%s has no status comment by %s: Clarify has asked nothing there yet, or the app's slug is not %q (-app, CLARIFY_APP_SLUG)",
			ref, bot, slug))
	case got.Status == nil && err != nil: // the comments could not be listed
		return clarify.Ledger{}, fmt.Errorf("%w%s", err, tokenHint(err))
	}
	if !keys.Given() {
		fmt.Fprintln(stderr, ledgerUncheckedNote)
	}
	return got.Ledger, err
}

// tokenHint says what to do about a refusal that a missing token explains.
func tokenHint(err error) string {
	var er *github.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || os.Getenv("GITHUB_TOKEN") != "" {
		return ""
	}
	switch er.Response.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return " (GITHUB_TOKEN is not set: a private repository needs a token that can read its issues)"
	}
	return ""
}

func writeAgentX(w io.Writer, f agentx.File) error {
	b, err := agentx.Marshal(f)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// readInput reads at most limit bytes of the named file, or of stdin for "-".
func readInput(name string, stdin io.Reader, limit int64) ([]byte, error) {
	in := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		in = f
	}
	return io.ReadAll(io.LimitReader(in, limit))
}

// printJSON prints v as indented JSON, as the app keeps a ledger.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
