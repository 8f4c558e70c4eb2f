package main

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/render"
)

// ledgerCmd prints the ledger hidden in a status comment; read-only, it never talks to GitHub.
func ledgerCmd(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("ledger", flag.ContinueOnError)
	key := fs.String("key", "", "ledger MAC key (default: CLARIFY_LEDGER_KEY, else derived from GITHUB_APP_WEBHOOK_SECRET)")
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
	if *key != "" {
		cfg.Clarify.LedgerKey = *key
	}
	l, err := render.DecodeLedger(string(body), cfg.LedgerKeyBytes())
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(l)
}
