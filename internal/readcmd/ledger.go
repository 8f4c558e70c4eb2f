package readcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/agentx"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// ledgerUsage is the ledger command's forms, where the reach takes files, after the
// program's name.
const ledgerUsage = `ledger [flags] OWNER/REPO#N    read an issue's ledger through GitHub's API
ledger [flags] FILE            read the ledger in a status comment's body (- for stdin)
ledger export [flags] OWNER/REPO#N
ledger import [flags] FILE     (%[1]s ledger export -h, %[1]s ledger import -h)`

const ledgerDetails = `Read-only: it never writes to GitHub. OWNER/REPO#N lists the issue's comments, takes the
status comment written by the app's own account (a look-alike by anyone else is ignored)
and the archive comments its ledger lists, and prints each clarification (id, topic, from
→ to, status, round), its thread and decision, then the assumption log. -json prints it
as an AgentX ledger file instead (seed 002's schema, plus Clarify's own fields under
"clarify").`

const ledgerFileDetails = `FILE prints the ledger's JSON as the app keeps it (-json: as an AgentX file).

The MAC is checked under the key serve signs with: -key, else CLARIFY_LEDGER_KEY, else
the key drawn from GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE (and the keys
serve still accepts from before a rotation; give a key from clarify.previous_ledger_keys
with -key). A ledger that does not verify is an error. With no key at all the ledger is
read unchecked, and stderr says "MAC not checked: no ledger key given".`

const ledgerExportDetails = `Reads the issue's ledger through GitHub's API, as bot ledger OWNER/REPO#N does (same
GITHUB_TOKEN, keys and MAC check), and writes it as an AgentX ledger file (seed 002), at
.agentx/state/clarifications/issue-N.json under the current directory unless -o says
otherwise, taking AgentX's lock file (FILE.lock) around the write. Every AgentX field is
filled; what Clarify keeps beyond them (comment ids, options, the assumption log, the
ledger's cursor and revision…) goes under "clarify" keys, so bot ledger import gives
the same ledger back.`

const ledgerImportDetails = `Offline and read-only: reads an AgentX ledger file (FILE, or - for stdin), checks it, and
prints the Clarify ledger it is, as JSON. It calls no API and writes no file. Fields
neither AgentX nor Clarify defines are named on stderr: they are not kept.

-status prints instead a status comment body holding that ledger, signed for its issue
with the key serve signs with (-key, CLARIFY_LEDGER_KEY, or drawn from
GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE), for an operator with write
access to paste over the app's status comment: the app trusts it because it verifies. A
ledger older (by its revision) than the last one the app wrote is rebuilt from the issue's
comments instead. The issue is the file's "clarify.repository" and issueNumber (-repo
when the file names no repository).`

// Ledger runs `ledger` as reach reads: an issue's ledger; where the reach takes files, also
// a status comment's body, and export to or import from an AgentX ledger file.
func Ledger(args []string, reach Reach, std cli.Std) error {
	if run, ok := reach.Files[first(args)]; ok {
		return run(args[1:], std)
	}
	return ledgerRead(args, reach, std)
}

// ledgerHelp is the ledger command's: the forms and details its reach takes.
func ledgerHelp(reach Reach) *cli.Command {
	usage, details := reach.Prog+" ledger [flags] OWNER/REPO#N", ledgerDetails+"\n\n"+reach.Auth
	if reach.Files != nil {
		usage = strings.ReplaceAll(fmt.Sprintf(ledgerUsage, reach.Prog), "\nledger", "\n"+reach.Prog+" ledger")
		usage, details = reach.Prog+" "+usage, details+"\n\n"+ledgerFileDetails
	}
	return cli.New("ledger", "Print an issue's clarifications, read from its hidden ledger.", usage, details)
}

func ledgerRead(args []string, reach Reach, std cli.Std) error {
	cmd := ledgerHelp(reach)
	src := reach.Flags(cmd, std)
	issue := new(string)
	if src.File != nil {
		issue = cmd.Flags.String("issue", "", "with FILE: the issue, OWNER/REPO#N, the status comment belongs to (each issue's ledger has a key of its own)")
	}
	asJSON := cmd.Flags.Bool("json", false, "print an AgentX ledger file (JSON) instead")
	pos, err := cmd.Parse(args, std.Out)
	switch {
	case err != nil:
		return err
	case src.File == nil:
		return ledgerIssue(cmd, src, pos, *asJSON, std.Out)
	case len(pos) != 1:
		return cmd.Usagef("give OWNER/REPO#N, or one file holding a status comment's body, - for standard input")
	}
	return ledgerIssueOrFile(cmd, src, pos[0], *issue, *asJSON, std)
}

// ledgerIssueOrFile reads arg, an issue or a file holding a status comment's body (- for
// stdin); issue is -issue, the issue the file's comment belongs to.
func ledgerIssueOrFile(cmd *cli.Command, src Source, arg, issue string, asJSON bool, std cli.Std) error {
	ref, isIssue := clarify.ParseIssueRef(arg)
	isFile := arg == "-" || fileExists(arg)
	if repo, _, _ := strings.Cut(arg, "#"); !isIssue && !isFile && looksLikeRepo(repo) {
		return cmd.Usagef("%q names no issue: give OWNER/REPO#N, the issue's number after #", arg)
	}
	if _, ok := clarify.ParseIssueRef(issue); issue != "" && !ok {
		return cmd.Usagef("-issue %q: write OWNER/REPO#N", issue)
	}
	if isIssue && !isFile {
		if issue != "" {
			return cmd.Usagef("-issue goes with FILE: with OWNER/REPO#N the issue is the argument")
		}
		return printIssue(src, ref, asJSON, std.Out)
	}
	l, ref, err := src.File(func() ([]byte, error) { return readInput(arg, std.In, 1<<20) }, issue)
	if err != nil {
		return err
	}
	if asJSON {
		return agentx.Write(std.Out, agentx.FromLedger(l, ref.FullName()))
	}
	return printJSON(std.Out, l)
}

// ledgerIssue is the ledger command where the reach takes no files: one OWNER/REPO#N.
func ledgerIssue(cmd *cli.Command, src Source, pos []string, asJSON bool, stdout io.Writer) error {
	if len(pos) != 1 {
		return cmd.Usagef("give one issue, OWNER/REPO#N")
	}
	ref, ok := clarify.ParseIssueRef(pos[0])
	if !ok {
		return cmd.Usagef("%q names no issue: give OWNER/REPO#N, the issue's number after #", pos[0])
	}
	return printIssue(src, ref, asJSON, stdout)
}

// printIssue reads an issue's ledger through the API and prints it for people, or as an
// AgentX ledger file.
func printIssue(src Source, ref clarify.IssueRef, asJSON bool, stdout io.Writer) error {
	l, err := fetchLedger(src, ref)
	if err != nil {
		return err
	}
	if asJSON {
		return agentx.Write(stdout, agentx.FromLedger(l, ref.FullName()))
	}
	fmt.Fprint(stdout, render.LedgerText(ref.String(), l))
	return nil
}

// first is args' first, or "" for none.
func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func ledgerExport(args []string, std cli.Std) error {
	stdout := std.Out
	cmd := cli.New("ledger export", "Write an issue's ledger as an AgentX ledger file.", "bot ledger export [flags] OWNER/REPO#N", ledgerExportDetails)
	src := keyedSource(cmd, std)
	out := cmd.Flags.String("o", "", "the file to write, - for stdout (default: .agentx/state/clarifications/issue-N.json)")
	pos, err := cmd.Parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmd.Usagef("give one issue, OWNER/REPO#N")
	}
	ref, ok := clarify.ParseIssueRef(pos[0])
	if !ok {
		return cmd.Usagef("%q: give the issue as OWNER/REPO#N", pos[0])
	}
	l, err := fetchLedger(src, ref)
	if err != nil {
		return err
	}
	return agentx.Export(stdout, *out, l, ref)
}

func ledgerImport(args []string, std cli.Std) error {
	stdin, stdout, stderr := std.In, std.Out, std.Err
	lf := newLedgerFlags(cli.New("ledger import", "Read an AgentX ledger file back into a Clarify ledger.", "bot ledger import [flags] FILE", ledgerImportDetails), false)
	status := lf.Flags.Bool("status", false, "print a signed status comment body instead of the ledger's JSON")
	repo := lf.Flags.String("repo", "", "with -status: the issue's repository, OWNER/REPO, when the file names none")
	pos, err := lf.Parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return lf.Usagef("give one AgentX ledger file, or - for standard input")
	}
	if *repo != "" && !looksLikeRepo(*repo) {
		return lf.Usagef("-repo %q: give the repository as OWNER/REPO", *repo)
	}
	data, err := readInput(pos[0], stdin, 8<<20)
	if err != nil {
		return err
	}
	l, f, err := agentx.Import(data, pos[0], stderr)
	if err != nil {
		return err
	}
	if !*status {
		return printJSON(stdout, l)
	}
	body, err := agentx.StatusBody(l, f.Repo(), *repo, func() (render.Keyring, error) { return ledger.KeyringFromEnv(*lf.key) }, stderr)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, body)
	return err
}

// looksLikeRepo is true for OWNER/REPO: what a person who forgot #N typed, rather than a
// file's path (a missing file is then named as such).
func looksLikeRepo(s string) bool {
	_, _, ok := clarify.ParseRepo(s)
	return ok
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// fetchLedger reads an issue's whole ledger through the API as the app does (ledger.PeopleReader).
func fetchLedger(src Source, ref clarify.IssueRef) (clarify.Ledger, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := src.Open(ctx, ref.Owner, ref.Repo)
	if err != nil {
		return clarify.Ledger{}, err
	}
	return r.ReadIssue(ctx, r.Client, ref)
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
