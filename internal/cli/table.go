package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Std is where a command reads and writes: the process's standard streams, or a test's.
type Std struct {
	In       io.Reader
	Out, Err io.Writer
}

// Entry is one row of a program's command table: what its help lists and what runs it.
type Entry struct {
	// Name is the command as typed after the program: "stats".
	Name string
	// Aliases are other names it answers to ("--version" for "version"); they are not listed.
	Aliases []string
	// Synopsis is its arguments and chief flags as the program's help lists them:
	// "OWNER/REPO [-since 720h]".
	Synopsis string
	// Summary says in one line what it is for; "" leaves the command out of the listing.
	Summary string
	// Run runs it with the arguments after its name. Its error sets the exit code (ExitAs):
	// nil 0, a usage mistake 2, a Status its own code, anything else 1.
	Run func(args []string, std Std) error
	// Exits are its exit codes beyond ExitCodes (a Status it returns), or what one of those
	// means for it: the manual lists them (Program.Manual).
	Exits []ExitCode
	// Subcommands are the commands typed after its name that it runs itself, not through
	// Command.Run (which the manual finds on its own): each has help of its own.
	Subcommands []string
}

// Program is a command made of commands (bot, gh clarify): its table and the help around
// it. Run is the only place that turns a command's name into the command and its error
// into an exit code.
type Program struct {
	// Name is how the program is typed: "bot", "gh clarify".
	Name string
	// Head is the help before the listing (what the program is, its usage lines); Foot the
	// help after it.
	Head, Foot string
	// Commands are its commands, in the order its help lists them.
	Commands []Entry
}

// summaryColumn is where the listing's summaries start: one line holds a command whose
// name and synopsis fit before it, the others take two.
const summaryColumn = 24

// Help writes the program's help: Head, the listing, Foot.
func (p Program) Help(w io.Writer) {
	width := 0
	for _, e := range p.Commands {
		if e.Summary != "" {
			width = max(width, len(e.Name))
		}
	}
	var b strings.Builder
	b.WriteString(p.Head)
	b.WriteString("\ncommands:\n")
	for _, e := range p.Commands {
		if e.Summary == "" {
			continue
		}
		line := strings.TrimRight(fmt.Sprintf("  %-*s %s", width, e.Name, e.Synopsis), " ")
		if n := len([]rune(line)); n < summaryColumn-1 {
			line += strings.Repeat(" ", summaryColumn-n)
		} else {
			line += "\n" + strings.Repeat(" ", summaryColumn)
		}
		b.WriteString(line + e.Summary + "\n")
	}
	if p.Foot != "" {
		b.WriteString("\n" + p.Foot)
	}
	io.WriteString(w, b.String())
}

// Run runs the command args[0] and returns the exit code. No command prints the help to
// stderr and exits 2; -h, --help and help print it to stdout; help COMMAND is COMMAND -h.
func (p Program) Run(args []string, std Std) int {
	if len(args) == 0 {
		p.Help(std.Err)
		return ExitUsage
	}
	if e, ok := p.lookup(args[0]); ok {
		return ExitAs(std.Err, p.Name, e.Name, e.Run(args[1:], std))
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
			return p.Run([]string{args[1], "-h"}, std)
		}
		p.Help(std.Out)
		return ExitOK
	}
	return ExitAs(std.Err, p.Name, "", Usagef("", "unknown command %q", args[0]))
}

// lookup finds the command typed as name.
func (p Program) lookup(name string) (Entry, bool) {
	for _, e := range p.Commands {
		if e.Name == name || slices.Contains(e.Aliases, name) {
			return e, true
		}
	}
	return Entry{}, false
}

// Status is the exit code of a command that has already said how it ended (bot wait's
// 3, 4 and 124; bot action's refusal): ExitAs prints nothing more for it.
type Status int

func (s Status) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// Code returns the error that exits with code: nil for 0, else a Status.
func Code(code int) error {
	if code == ExitOK {
		return nil
	}
	return Status(code)
}

// statusOf is err's own exit code, when it is a Status.
func statusOf(err error) (int, bool) {
	var s Status
	if errors.As(err, &s) {
		return int(s), true
	}
	return 0, false
}
