package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/clarify-app/clarify/handlers"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/render"
)

// ledgerCmd prints the ledger hidden in a status comment; read-only, it never talks to GitHub.
func ledgerCmd(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("ledger", flag.ContinueOnError)
	key := fs.String("key", "", "ledger MAC key (default: CLARIFY_LEDGER_KEY, else derived from GITHUB_APP_PRIVATE_KEY)")
	issue := fs.String("issue", "", "the issue the status comment belongs to, OWNER/REPO#N: each issue's ledger is signed with a key of its own")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("give one file holding a status comment's body, or - for standard input")
	}
	in := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	body, err := io.ReadAll(io.LimitReader(in, 1<<20))
	if err != nil {
		return err
	}
	var cfg app.Config
	cfg.FromEnv()
	// The key as serve reads it (from GITHUB_APP_PRIVATE_KEY_FILE, \n unescaped), or the
	// ledger key drawn from it would differ.
	cfg.LoadPrivateKey()
	if *key != "" {
		cfg.Clarify.LedgerKey = *key
	}
	k := cfg.LedgerKeyBytes()
	if *issue != "" {
		repo, num, _ := strings.Cut(*issue, "#")
		owner, name, _ := strings.Cut(repo, "/")
		n, err := strconv.Atoi(num)
		if err != nil || owner == "" || name == "" {
			return fmt.Errorf("-issue %q: write OWNER/REPO#N", *issue)
		}
		k = handlers.IssueLedgerKey(k, owner, name, n)
	}
	l, err := render.DecodeLedger(string(body), k)
	if err != nil {
		if *issue == "" {
			return fmt.Errorf("%w (give -issue OWNER/REPO#N: each issue's ledger has a key of its own)", err)
		}
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(l)
}
