// Package cli reads the command lines of bot and gh clarify the way Go's tools and gh do,
// so that every subcommand behaves the same:
//
//   - -h, -help and --help print the command's help (a one-line summary, its usage, the
//     details, its flags) to the standard output, and the command exits 0;
//   - a usage mistake (an unknown flag, a flag's bad value, a missing, extra or malformed
//     argument, an unknown subcommand) exits 2 with one line on the standard error saying
//     what is wrong and where the help is, never the whole help;
//   - flags are taken before and after the positional arguments (`bot config check FILE
//     -repo octo/widgets`), up to a `--`, after which everything is an argument;
//   - any other error exits 1, as `bot NAME: error`; a Status exits with its own code.
//
// A program is a Program: a table with a row (Entry) per command, which its help lists and
// its Run dispatches to. A command builds a Command, adds its flags to Command.Flags, calls
// Parse, checks its arguments (returning Usagef for a mistake), does its work and returns
// its error, which Program.Run turns into the exit code. Usage:
//
//	cmd := cli.New("stats", "a digest of a repository's clarifications", "bot stats [flags] OWNER/REPO", details)
//	since := cmd.Flags.Duration("since", 720*time.Hour, "…")
//	pos, err := cmd.Parse(args, stdout)
//	if err != nil {
//		return err // flag.ErrHelp (help printed) or a *UsageError
//	}
//	if len(pos) != 1 {
//		return cmd.Usagef("give one repository, OWNER/REPO")
//	}
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes shared by every subcommand.
const (
	ExitOK = 0
	// ExitError is a command that ran and failed: a file missing, GitHub refusing, a
	// ledger that does not verify.
	ExitError = 1
	// ExitUsage is a command line that could not be run as typed.
	ExitUsage = 2
)

// Command is one subcommand's command line: its flags and the text of its help.
type Command struct {
	// Name is the command as typed after bot: "ledger", "config check".
	Name string
	// Summary says in one line what the command is for; help starts with it.
	Summary string
	// Usage is the command's forms, one a line, each starting with "bot ".
	Usage string
	// Details, optional, is what help says between the usage and the flags.
	Details string
	// Flags are the command's flags; add them before Parse.
	Flags *flag.FlagSet
}

// New returns a command with no flags yet.
func New(name, summary, usage, details string) *Command {
	fs := flag.NewFlagSet("bot "+name, flag.ContinueOnError)
	// Parse reports mistakes as one line through Exit; the flag package would print the
	// whole usage to its output first.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &Command{Name: name, Summary: summary, Usage: usage, Details: details, Flags: fs}
}

// Parse parses args, flags and positional arguments in any order, and returns the
// positional arguments. For -h it prints the help to stdout and returns flag.ErrHelp;
// for a mistake it returns a *UsageError.
func (c *Command) Parse(args []string, stdout io.Writer) ([]string, error) {
	var pos []string
	for {
		err := c.Flags.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.Help(stdout)
			return nil, flag.ErrHelp
		}
		if err != nil {
			return nil, c.Usagef("%v", err)
		}
		rest := c.Flags.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// The flag package stops at the first argument, and after consuming a "--".
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// Help writes the command's help: summary, usage, details, flags.
func (c *Command) Help(w io.Writer) {
	take(w, c, nil)
	fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(c.Summary))
	for i, line := range strings.Split(strings.TrimSpace(c.Usage), "\n") {
		prefix := "usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintf(w, "%s%s\n", prefix, strings.TrimSpace(line))
	}
	if d := strings.TrimSpace(c.Details); d != "" {
		fmt.Fprintf(w, "\n%s\n", d)
	}
	n := 0
	c.Flags.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprint(w, "\nflags (before or after the arguments):\n")
	saved := c.Flags.Output()
	c.Flags.SetOutput(w)
	c.Flags.PrintDefaults()
	c.Flags.SetOutput(saved)
}

// Usagef returns a usage mistake of this command: Exit prints it as one line and exits 2.
func (c *Command) Usagef(format string, args ...any) error {
	return Usagef(c.Name, format, args...)
}

// UsageError is a command line that could not be run as typed: exit 2.
type UsageError struct {
	// Cmd is the command as typed after bot ("ledger export"), empty for bot itself.
	Cmd string
	// Msg says what is wrong, in one line.
	Msg string
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a usage mistake of the command cmd ("" for bot itself).
func Usagef(cmd, format string, args ...any) error {
	return &UsageError{Cmd: cmd, Msg: fmt.Sprintf(format, args...)}
}

// Exit reports the error a bot command named name returned, on stderr, and returns the
// exit code: 0 for nil and for help (already printed), 2 for a usage mistake, 1 otherwise.
func Exit(stderr io.Writer, name string, err error) int {
	return ExitAs(stderr, "bot", name, err)
}

// ExitAs is Exit for a program typed as prog ("gh clarify"): the same messages and exit
// codes, under its name. A Status exits with its code and prints nothing: its command
// has said how it ended.
func ExitAs(stderr io.Writer, prog, name string, err error) int {
	var ue *UsageError
	var sub *subError
	if errors.As(err, &sub) {
		name = sub.cmd
	}
	if code, ok := statusOf(err); ok {
		return code
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "%s: %s (%s -h for help)\n", typed(prog, ue.Cmd), ue.Msg, typed(prog, ue.Cmd))
		return ExitUsage
	default:
		fmt.Fprintf(stderr, "%s: %v\n", typed(prog, name), err)
		return ExitError
	}
}

// typed names the command as typed: "bot", "bot ledger export", "gh clarify ask".
func typed(prog, cmd string) string {
	if cmd == "" {
		return prog
	}
	return prog + " " + cmd
}

// Run runs the subcommand args[0] of a command made of subcommands (`bot config check`):
// subs maps each name to what runs it with the arguments after the name. No name, or
// one not in subs, is a usage mistake; -h prints c's help.
func (c *Command) Run(args []string, stdout io.Writer, subs map[string]func(args []string) error) error {
	names := make([]string, 0, len(subs))
	for n := range subs {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(args) == 0 {
		return c.Usagef("give a command: %s", strings.Join(names, ", "))
	}
	if run, ok := subs[args[0]]; ok {
		if err := run(args[1:]); err != nil {
			return &subError{cmd: c.Name + " " + args[0], err: err}
		}
		return nil
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		c.Help(stdout)
		take(stdout, nil, names)
		return flag.ErrHelp
	}
	return c.Usagef("unknown command %q; the commands: %s", args[0], strings.Join(names, ", "))
}

// subError names the subcommand an error came from, for Exit: "bot config check: …".
type subError struct {
	cmd string
	err error
}

func (e *subError) Error() string { return e.err.Error() }
func (e *subError) Unwrap() error { return e.err }

// EnvOr returns the environment variable key, or def when it is unset or empty: a flag's
// default that the environment may set.
func EnvOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
