package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/manual"
)

// pager is a program whose wait command declares its flags in its own Run, as every
// command does, with an exit code of its own, and a group whose subcommands Command.Run
// dispatches: with more set, wait takes one more flag.
func pager(more *bool) Program {
	wait := func(args []string, std Std) error {
		cmd := New("wait", "Wait until it is answered.", "tool wait [flags] OWNER/REPO#N CLR-…", "Blocks until it is answered.")
		cmd.Flags.Duration("timeout", 2*time.Hour, "how long to wait")
		if *more {
			cmd.Flags.Bool("quiet", false, "print nothing")
		}
		_, err := cmd.Parse(args, std.Out)
		return err
	}
	key := func(args []string, std Std) error {
		group := New("key", "Make keys.", "tool key new|public", "")
		sub := func(name string) func([]string) error {
			return func(args []string) error {
				c := New("key "+name, "", "tool key "+name+" [-config FILE]", "")
				c.Flags.String("config", "", "the file to add it to")
				_, err := c.Parse(args, std.Out)
				return err
			}
		}
		return group.Run(args, std.Out, map[string]func([]string) error{"new": sub("new"), "public": sub("public")})
	}
	return Program{Name: "tool", Head: "usage: tool <command>\n", Commands: []Entry{
		{Name: "wait", Synopsis: "OWNER/REPO#N CLR-…", Summary: "wait until it is answered", Run: wait,
			Exits: []ExitCode{{Code: 124, Means: "still open"}, {Code: ExitOK, Means: "answered"}}},
		{Name: "key", Synopsis: "new|public", Summary: "make keys", Run: key},
	}}
}

func manualOf(t *testing.T, p Program) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Manual(&b, 2); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAManualFailsItsCheckWhenAFlagIsAddedWithoutRegenerating: the page lists each
// command's flags with their defaults, its exit codes and its subcommands, from the
// command's own -h; a flag added to a command makes the checked-in page stale, and the
// check says how to regenerate it.
func TestAManualFailsItsCheckWhenAFlagIsAddedWithoutRegenerating(t *testing.T) {
	more := false
	page := filepath.Join(t.TempDir(), "cli.md")
	if err := manual.Check(page, manualOf(t, pager(&more)), true, "regen"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(page)
	for _, want := range []string{
		"### tool wait\n\nWait until it is answered.\n\n```text\ntool wait [flags] OWNER/REPO#N CLR-…\n```\n\nBlocks until it is answered.\n\n",
		"| `-timeout duration` | `2h0m0s` | how long to wait |\n",
		"| 0 | answered |\n| 1 | failed: the error on stderr |\n| 2 | a usage mistake",
		"| 124 | still open |\n",
		"#### tool key new\n\n```text\ntool key new [-config FILE]\n```\n\n| flag | default | what it is for |\n|---|---|---|\n| `-config string` |  | the file to add it to |\n",
		"#### tool key public\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the manual lacks %q:\n%s", want, got)
		}
	}
	if err := manual.Check(page, manualOf(t, pager(&more)), false, "regen"); err != nil {
		t.Errorf("the manual as generated fails its check: %v", err)
	}

	more = true
	err := manual.Check(page, manualOf(t, pager(&more)), false, "go run ./regen")
	if err == nil || !strings.Contains(err.Error(), "run go run ./regen to regenerate") || !strings.Contains(err.Error(), "-quiet") {
		t.Errorf("a flag added without regenerating: %v; want the check to fail, name the new flag's line and say how to regenerate", err)
	}
}
