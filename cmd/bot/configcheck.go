package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/clarify-app/clarify/repoconfig"
)

// configCmd checks a repository config file offline: `bot config check FILE`.
func configCmd(args []string, stdout io.Writer) error {
	if len(args) != 2 || args[0] != "check" {
		return errors.New("usage: bot config check FILE")
	}
	b, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	cfg, err := repoconfig.Parse(b)
	if err != nil {
		return fmt.Errorf("%s: %w", args[1], err)
	}
	p := cfg.Policy
	fmt.Fprintf(stdout, "%s: ok\n  roles: %d, routes: %d, max rounds: %d blocking / %d non-blocking, sla: %s, max per issue: %d\n",
		args[1], len(p.Roles), len(p.Routes), p.MaxRoundsBlocking, p.MaxRoundsNonBlocking, p.SLA, p.MaxPerIssue)
	return nil
}
