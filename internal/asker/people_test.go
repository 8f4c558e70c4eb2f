package asker_test

import (
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/readcmd"
)

// stats runs stats as gh clarify does: the read commands' rows, read through the door.
func stats(d asker.Door, args []string) int {
	p := cli.Program{Name: d.Prog, Commands: readcmd.Commands(d.Reach())}
	return p.Run(append([]string{"stats"}, args...), cli.Std{Out: d.Stdout, Err: d.Stderr})
}

// TestStatsUsageMistakesExitTwo: gh clarify stats answers a mistake as bot stats does,
// in one line naming what is wrong, exit 2, before it reads anything.
func TestStatsUsageMistakesExitTwo(t *testing.T) {
	w := newWorld(t)
	w.wire.counts() // the world's setup
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"zeroSince":     {[]string{repo, "--since", "0s"}, `bot stats: invalid value "0s" for flag -since: give how far back to look, a positive duration`},
		"negativeSince": {[]string{repo, "--since", "-24h"}, `bot stats: invalid value "-24h" for flag -since: give how far back to look, a positive duration`},
		"badSince":      {[]string{repo, "--since", "a month"}, `bot stats: invalid value "a month" for flag -since: give a Go duration`},
		"json":          {[]string{repo, "--json"}, "bot stats: flag provided but not defined: -json"},
		"noRepo":        {nil, "bot stats: give one repository, OWNER/REPO"},
		"notARepo":      {[]string{"widgets"}, `bot stats: "widgets": give the repository as OWNER/REPO`},
	} {
		code, out, errs := w.run(stats, tc.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, tc.want) || !strings.HasSuffix(errs, " -h for help)\n") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and one line starting %q", name, code, out, errs, tc.want)
		}
	}
	if _, n, lines := w.wire.counts(); n != 0 {
		t.Errorf("usage mistakes made %d requests: %v", n, lines)
	}
}

// TestStatsPrintsTheDigest: a positive --since reads the repository's ledgers.
func TestStatsPrintsTheDigest(t *testing.T) {
	w := newWorld(t)
	code, out, errs := w.run(stats, repo, "--since", "100000h")
	if code != 0 || !strings.Contains(out, "1 issue(s) updated since then") {
		t.Errorf("stats: exit %d, stdout %q, stderr %q; want 0 and the digest", code, out, errs)
	}
}
