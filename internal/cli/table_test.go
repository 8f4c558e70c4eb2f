package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// tool is a program of three commands: one that fails, one with its own exit code and a
// hidden one, each recording the arguments it was run with.
func tool(ran *[]string) Program {
	record := func(err error) func([]string, Std) error {
		return func(args []string, std Std) error {
			*ran = append(*ran, strings.Join(args, " "))
			if len(args) == 1 && args[0] == "-h" {
				return flag.ErrHelp // its help printed
			}
			return err
		}
	}
	return Program{Name: "tool", Head: "usage: tool <command>\n", Foot: "Exit status: 0 done.\n", Commands: []Entry{
		{Name: "fetch", Synopsis: "OWNER/REPO", Summary: "fetch a repository", Run: record(errors.New("no such repository"))},
		{Name: "wait", Synopsis: "OWNER/REPO#N CLR-… [--timeout 2h]", Summary: "wait until it is answered", Run: record(Status(124))},
		{Name: "version", Aliases: []string{"--version"}, Run: func(args []string, std Std) error {
			std.Out.Write([]byte("tool v1\n"))
			return nil
		}},
	}}
}

func TestProgramHelpListsEachCommandOnceWithItsSummary(t *testing.T) {
	var ran []string
	var out bytes.Buffer
	tool(&ran).Help(&out)
	want := "usage: tool <command>\n\ncommands:\n" +
		"  fetch OWNER/REPO      fetch a repository\n" +
		"  wait  OWNER/REPO#N CLR-… [--timeout 2h]\n" +
		"                        wait until it is answered\n" +
		"\nExit status: 0 done.\n"
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestProgramRunsTheCommandTypedAndExitsAsItSays(t *testing.T) {
	tests := map[string]struct {
		args             []string
		wantCode         int
		wantRan          []string
		wantOut, wantErr string
	}{
		"failureExitsOneNamingTheCommand": {[]string{"fetch", "octo/widgets"}, ExitError, []string{"octo/widgets"}, "", "tool fetch: no such repository\n"},
		"ownCodeSaysNothingMore":          {[]string{"wait", "octo/widgets#1", "CLR-1-001"}, 124, []string{"octo/widgets#1 CLR-1-001"}, "", ""},
		"aliasRunsTheHiddenCommand":       {[]string{"--version"}, ExitOK, nil, "tool v1\n", ""},
		"helpCommandIsCommandH":           {[]string{"help", "fetch"}, ExitOK, []string{"-h"}, "", ""},
		"unknownCommandIsOneLine":         {[]string{"fetsh"}, ExitUsage, nil, "", "tool: unknown command \"fetsh\" (tool -h for help)\n"},
		"helpOfAnUnknownCommand":          {[]string{"help", "fetsh"}, ExitUsage, nil, "", "tool: unknown command \"fetsh\" (tool -h for help)\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var ran []string
			var out, errs bytes.Buffer
			code := tool(&ran).Run(tc.args, Std{Out: &out, Err: &errs})
			if code != tc.wantCode || strings.Join(ran, "|") != strings.Join(tc.wantRan, "|") || out.String() != tc.wantOut || errs.String() != tc.wantErr {
				t.Errorf("tool %s: exit %d, ran %q, stdout %q, stderr %q; want %d, %q, %q, %q",
					strings.Join(tc.args, " "), code, ran, out.String(), errs.String(), tc.wantCode, tc.wantRan, tc.wantOut, tc.wantErr)
			}
		})
	}
}

// TestProgramHelpGoesToStdoutUnlessNoCommandWasGiven: asked for, the help is the answer
// (stdout, exit 0); with no command at all, it says what was missing (stderr, exit 2).
func TestProgramHelpGoesToStdoutUnlessNoCommandWasGiven(t *testing.T) {
	var ran []string
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, nil} {
		var out, errs bytes.Buffer
		code := tool(&ran).Run(args, Std{Out: &out, Err: &errs})
		got, want := out.String(), ExitOK
		if args == nil {
			got, want = errs.String(), ExitUsage
		}
		if code != want || !strings.HasPrefix(got, "usage: tool <command>\n") || out.Len()+errs.Len() != len(got) {
			t.Errorf("tool %q: exit %d, stdout %q, stderr %q; want %d and the help alone", args, code, out.String(), errs.String(), want)
		}
	}
	if len(ran) != 0 {
		t.Errorf("help ran %q", ran)
	}
}
