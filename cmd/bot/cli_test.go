package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runBot runs `bot args…` as main does and returns its exit code, stdout and stderr.
func runBot(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestEveryCommandAnswersHelp: -h, --help and bot help COMMAND print what the command is
// for, its usage and every flag, on stdout, and exit 0.
func TestEveryCommandAnswersHelp(t *testing.T) {
	tests := map[string][]string{ // the command → the flags its help must list
		"serve":         {"-c"},
		"sweep":         {"-c"},
		"replay":        {"-log"},
		"ledger":        {"-json", "-key", "-api", "-app", "-issue"},
		"ledger export": {"-o", "-key", "-api", "-app"},
		"ledger import": {"-status", "-repo", "-key"},
		"config":        nil,
		"config check":  {"-repo", "-api"},
		"stats":         {"-since", "-key", "-api", "-app"},
		"setup":         {"-webhook-url", "-manifest", "-org", "-name", "-o", "-force", "-web", "-api", "-listen"},
		"action":        nil,
	}
	for name, flags := range tests {
		cmd := strings.Fields(name)
		forms := [][]string{append(cmd, "-h"), append(cmd, "--help"), append(cmd, "-help")}
		if len(cmd) == 1 {
			forms = append(forms, []string{"help", name})
		}
		for _, args := range forms {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, out, errs := runBot(args...)
				if code != 0 || errs != "" {
					t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errs)
				}
				summary, _, _ := strings.Cut(out, "\n")
				if len(summary) < 20 || !strings.Contains(out, "\nusage: bot "+name) {
					t.Errorf("help does not start with what the command is for, then its usage:\n%s", out)
				}
				for _, f := range flags {
					if !regexp.MustCompile(`(?m)^  ` + f + `\b`).MatchString(out) {
						t.Errorf("help does not list %s:\n%s", f, out)
					}
				}
			})
		}
	}
}

// TestAUsageMistakeExitsTwoInOneLine: what is wrong, in one line on stderr, and no help.
func TestAUsageMistakeExitsTwoInOneLine(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"noCommand":            {[]string{"nope"}, `bot: unknown command "nope"`},
		"serveUnknownFlag":     {[]string{"serve", "-nope"}, "bot serve: flag provided but not defined: -nope"},
		"serveArgument":        {[]string{"serve", "config.yml"}, `bot serve: unexpected argument "config.yml": the config file goes after -c`},
		"sweepFlagNoValue":     {[]string{"sweep", "-c"}, "bot sweep: flag needs an argument: -c"},
		"replayUnknownFlag":    {[]string{"replay", "-nope"}, "bot replay: flag provided but not defined: -nope"},
		"ledgerNothing":        {[]string{"ledger"}, "bot ledger: give OWNER/REPO#N, or one file"},
		"ledgerNoNumber":       {[]string{"ledger", "octo/widgets"}, `bot ledger: "octo/widgets" names no issue: give OWNER/REPO#N`},
		"ledgerBadNumber":      {[]string{"ledger", "octo/widgets#x"}, `bot ledger: "octo/widgets#x" names no issue: give OWNER/REPO#N`},
		"ledgerTwoArguments":   {[]string{"ledger", "octo/widgets#1", "octo/widgets#2"}, "bot ledger: give OWNER/REPO#N, or one file"},
		"ledgerFlagAfter":      {[]string{"ledger", "octo/widgets#1", "-nope"}, "bot ledger: flag provided but not defined: -nope"},
		"ledgerIssueWithIssue": {[]string{"ledger", "octo/widgets#1", "-issue", "octo/widgets#1"}, "bot ledger: -issue goes with FILE"},
		"ledgerBadIssueFlag":   {[]string{"ledger", "-", "-issue", "octo/widgets"}, `bot ledger: -issue "octo/widgets": write OWNER/REPO#N`},
		"importBadRepo":        {[]string{"ledger", "import", "-status", "-repo", "widgets", "-"}, `bot ledger import: -repo "widgets": give the repository as OWNER/REPO`},
		"statsNegativeSince":   {[]string{"stats", "octo/widgets", "-since", "-24h"}, `bot stats: invalid value "-24h" for flag -since: give how far back to look, a positive duration`},
		"statsZeroSince":       {[]string{"stats", "octo/widgets", "-since", "0s"}, `bot stats: invalid value "0s" for flag -since: give how far back to look, a positive duration`},
		"exportNoIssue":        {[]string{"ledger", "export"}, "bot ledger export: give one issue, OWNER/REPO#N"},
		"exportNotAnIssue":     {[]string{"ledger", "export", "octo/widgets"}, `bot ledger export: "octo/widgets": give the issue as OWNER/REPO#N`},
		"importNoFile":         {[]string{"ledger", "import", "-status"}, "bot ledger import: give one AgentX ledger file"},
		"configNoCommand":      {[]string{"config"}, "bot config: give a command: check"},
		"configUnknownCommand": {[]string{"config", "lint"}, `bot config: unknown command "lint"`},
		"configCheckNoFile":    {[]string{"config", "check", "-repo", "octo/widgets"}, "bot config check: give one FILE"},
		"configCheckBadRepo":   {[]string{"config", "check", "a.yml", "-repo", "widgets"}, `bot config check: -repo "widgets": give the repository as OWNER/REPO`},
		"configCheckBadFlag":   {[]string{"config", "check", "a.yml", "-nope"}, "bot config check: flag provided but not defined: -nope"},
		"statsNoRepo":          {[]string{"stats"}, "bot stats: give one repository, OWNER/REPO"},
		"statsNotARepo":        {[]string{"stats", "widgets"}, `bot stats: "widgets": give the repository as OWNER/REPO`},
		"statsBadSince":        {[]string{"stats", "octo/widgets", "-since", "a month"}, `bot stats: invalid value "a month" for flag -since`},
		"setupArgument":        {[]string{"setup", "config.yml"}, `bot setup: unexpected argument "config.yml"`},
		"setupUnknownFlag":     {[]string{"setup", "-webhook", "https://h.example.org"}, "bot setup: flag provided but not defined: -webhook"},
		"actionArgument":       {[]string{"action", "issue_comment"}, `bot action: unexpected argument "issue_comment"`},
		"actionUnknownFlag":    {[]string{"action", "-nope"}, "bot action: flag provided but not defined: -nope"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runBot(tc.args...)
			if code != 2 {
				t.Errorf("bot %s: exit %d, want 2", strings.Join(tc.args, " "), code)
			}
			if out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, tc.want) || !strings.HasSuffix(errs, " -h for help)\n") {
				t.Errorf("bot %s: stdout %q, stderr %q; want one line starting %q, pointing at -h", strings.Join(tc.args, " "), out, errs, tc.want)
			}
		})
	}
}

// TestConfigCheckListsOneProblemALine: a broken file gets each problem on a line of its
// own with its line number, exit 1, whatever side of FILE the flags are on.
func TestConfigCheckListsOneProblemALine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clarify.yml")
	file := "sla: \"30\"\nmax_rounds:\n  blocking: 0\nroles:\n  security: [\"@octo/sec\"]\nsecurity: x\n"
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"bot config check: " + path + ": 3 problems",
		`  line 1: sla: "30" is not a duration`,
		"  line 3: max_rounds.blocking: 0 is too small",
		"  line 6: security: unknown key",
	}
	for _, args := range [][]string{{"config", "check", path}, {"config", "check", path, "-api", "http://127.0.0.1:1"}} {
		code, _, errs := runBot(args...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != 1 || len(lines) != len(want) {
			t.Fatalf("bot %s: exit %d, %d lines; want 1, %d lines:\n%s", strings.Join(args, " "), code, len(lines), len(want), errs)
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("line %d: %q, want it to start %q", i+1, lines[i], w)
			}
		}
	}
}

// TestReplayOfAMissingFileSaysSoAlone: a scenario file that is not there is named on
// stderr, exit 1, with no summary of requests nobody made on stdout.
func TestReplayOfAMissingFileSaysSoAlone(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "ask.txt")
	code, out, errs := runBot("replay", missing)
	if code != 1 || out != "" || errs != "bot replay: stat "+missing+": no such file or directory\n" {
		t.Errorf("bot replay %s: exit %d, stdout %q, stderr %q; want exit 1, nothing on stdout, the file named on stderr", missing, code, out, errs)
	}
}
