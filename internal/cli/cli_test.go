package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func newCheck() (*Command, *string) {
	c := New("config check", "Check a repository's .github/clarify.yml.", "bot config check [flags] FILE", "Offline unless -repo is given.")
	repo := c.Flags.String("repo", "", "OWNER/REPO to look up")
	c.Flags.Bool("json", false, "print JSON")
	return c, repo
}

func TestParseTakesFlagsBeforeAndAfterTheArguments(t *testing.T) {
	tests := map[string]struct {
		args     []string
		wantPos  []string
		wantRepo string
	}{
		"flagsFirst":             {[]string{"-repo", "octo/widgets", "a.yml"}, []string{"a.yml"}, "octo/widgets"},
		"flagsAfter":             {[]string{"a.yml", "-repo", "octo/widgets"}, []string{"a.yml"}, "octo/widgets"},
		"flagsBetween":           {[]string{"a.yml", "-json", "b.yml", "--repo=x/y"}, []string{"a.yml", "b.yml"}, "x/y"},
		"dashIsStdin":            {[]string{"-", "-json"}, []string{"-"}, ""},
		"afterDoubleDashAllArgs": {[]string{"a.yml", "--", "-repo", "b"}, []string{"a.yml", "-repo", "b"}, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, repo := newCheck()
			pos, err := c.Parse(tc.args, io.Discard)
			if err != nil || !slices.Equal(pos, tc.wantPos) || *repo != tc.wantRepo {
				t.Errorf("Parse(%q) = %q, repo %q, %v; want %q, repo %q", tc.args, pos, *repo, err, tc.wantPos, tc.wantRepo)
			}
		})
	}
}

func TestHelpPrintsSummaryUsageDetailsAndFlagsAndExitsZero(t *testing.T) {
	for _, h := range []string{"-h", "-help", "--help"} {
		t.Run(h, func(t *testing.T) {
			c, _ := newCheck()
			var out, errs bytes.Buffer
			_, err := c.Parse([]string{"a.yml", h}, &out)
			if code := Exit(&errs, c.Name, err); code != ExitOK || errs.Len() != 0 {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", code, errs.String())
			}
			want := "Check a repository's .github/clarify.yml.\n\nusage: bot config check [flags] FILE\n\nOffline unless -repo is given.\n\nflags (before or after the arguments):\n  -json\n"
			if !strings.HasPrefix(out.String(), want) || !strings.Contains(out.String(), "  -repo string\n    \tOWNER/REPO to look up") {
				t.Errorf("help:\n%s", out.String())
			}
		})
	}
}

func TestAUsageMistakeIsOneLineAndExitsTwo(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"unknownFlag":    {[]string{"a.yml", "-nope"}, "bot config check: flag provided but not defined: -nope (bot config check -h for help)\n"},
		"flagNoValue":    {[]string{"a.yml", "-repo"}, "bot config check: flag needs an argument: -repo (bot config check -h for help)\n"},
		"badBool":        {[]string{"-json=maybe", "a.yml"}, `bot config check: invalid boolean value "maybe" for -json: parse error (bot config check -h for help)` + "\n"},
		"missingFileArg": {[]string{"-json"}, "bot config check: give one FILE (bot config check -h for help)\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, _ := newCheck()
			var out, errs bytes.Buffer
			pos, err := c.Parse(tc.args, &out)
			if err == nil && len(pos) != 1 {
				err = c.Usagef("give one FILE")
			}
			if code := Exit(&errs, c.Name, err); code != ExitUsage || errs.String() != tc.want || out.Len() != 0 {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 and %q", code, errs.String(), out.String(), tc.want)
			}
		})
	}
}

func TestAnyOtherErrorExitsOneNamingTheCommand(t *testing.T) {
	var errs bytes.Buffer
	if code := Exit(&errs, "ledger", fmt.Errorf("read: %w", errors.New("GitHub said 404"))); code != ExitError || errs.String() != "bot ledger: read: GitHub said 404\n" {
		t.Errorf("exit %d, %q", code, errs.String())
	}
}

func TestRunPicksTheSubcommand(t *testing.T) {
	group := New("config", "Work with a repository's config.", "bot config check [flags] FILE", "")
	var ran []string
	subs := map[string]func([]string) error{
		"check": func(args []string) error { ran = args; return nil },
		"print": func([]string) error { return nil },
	}
	if err := group.Run([]string{"check", "a.yml"}, io.Discard, subs); err != nil || !slices.Equal(ran, []string{"a.yml"}) {
		t.Errorf("check ran with %q, %v", ran, err)
	}
	var out bytes.Buffer
	if err := group.Run([]string{"-h"}, &out, subs); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "usage: bot config check") {
		t.Errorf("-h: %v\n%s", err, out.String())
	}
	for args, want := range map[string]string{
		"":     "bot config: give a command: check, print (bot config -h for help)\n",
		"lint": `bot config: unknown command "lint"; the commands: check, print (bot config -h for help)` + "\n",
	} {
		var errs bytes.Buffer
		err := group.Run(strings.Fields(args), io.Discard, subs)
		if code := Exit(&errs, "config", err); code != ExitUsage || errs.String() != want {
			t.Errorf("bot config %s: exit %d, %q; want 2, %q", args, code, errs.String(), want)
		}
	}
}

func TestAnErrorOfASubcommandNamesIt(t *testing.T) {
	group := New("config", "Work with a repository's config.", "bot config check [flags] FILE", "")
	err := group.Run([]string{"check", "a.yml"}, io.Discard, map[string]func([]string) error{
		"check": func([]string) error { return errors.New("a.yml: 2 problems") },
	})
	var errs bytes.Buffer
	if code := Exit(&errs, "config", err); code != ExitError || errs.String() != "bot config check: a.yml: 2 problems\n" {
		t.Errorf("exit %d, %q", code, errs.String())
	}
}
