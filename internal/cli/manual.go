package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/clarify-app/clarify/internal/manual"
)

// ExitCode is one exit code of a command and what it means.
type ExitCode struct {
	Code  int
	Means string
}

// ExitCodes are the exit codes every command has (ExitAs); an Entry's Exits add to them.
var ExitCodes = []ExitCode{
	{ExitOK, "done"},
	{ExitError, "failed: the error on stderr"},
	{ExitUsage, "a usage mistake: one line on stderr says what is wrong"},
}

// helpTaker is what a command's help is written to while the manual is made: Help hands
// it the Command itself, with its flags, rather than only the text.
type helpTaker struct {
	strings.Builder
	cmds []*Command
	subs []string
}

// take records c, if w is the manual's: Help and Run call it.
func take(w io.Writer, c *Command, subs []string) {
	if h, ok := w.(*helpTaker); ok {
		if c != nil {
			h.cmds = append(h.cmds, c)
		}
		h.subs = append(h.subs, subs...)
	}
}

// Manual writes the program's reference in Markdown: its listing, then each listed
// command's summary, usage, details, flags and exit codes, as its -h (run through the
// command's own Run) declares them, and its subcommands' the same way.
func (p Program) Manual(w io.Writer, level int) error {
	h := strings.Repeat("#", level)
	fmt.Fprintf(w, "%s %s\n\n", h, p.Name)
	var help strings.Builder
	p.Help(&help)
	manual.Block(w, "text", help.String())
	for _, e := range p.Commands {
		if e.Summary == "" {
			continue
		}
		if err := p.manualOf(w, h+"#", e); err != nil {
			return err
		}
	}
	return nil
}

// manualOf writes one command's part of the manual.
func (p Program) manualOf(w io.Writer, h string, e Entry) error {
	main, subs, err := p.helpOf(e, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %s %s\n\n", h, p.Name, e.Name)
	writeCommand(w, main, nil)
	manual.Table(w, []string{"exit code", "means"}, exitRows(e.Exits))
	for _, s := range append(subs, e.Subcommands...) {
		sub, _, err := p.helpOf(e, []string{s})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s# %s %s %s\n\n", h, p.Name, e.Name, s)
		writeCommand(w, sub, main)
	}
	return nil
}

// helpOf runs e with sub and -h, and returns the Command whose help it printed and the
// subcommands Command.Run said it has.
func (p Program) helpOf(e Entry, sub []string) (*Command, []string, error) {
	var out helpTaker
	var stderr strings.Builder
	err := e.Run(append(sub, "-h"), Std{In: strings.NewReader(""), Out: &out, Err: &stderr})
	typed := strings.Join(append([]string{p.Name, e.Name}, sub...), " ")
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, nil, fmt.Errorf("%s -h: %v %s", typed, err, stderr.String())
	}
	if len(out.cmds) == 0 {
		return nil, nil, fmt.Errorf("%s -h printed no help of internal/cli's Command", typed)
	}
	return out.cmds[0], out.subs, nil
}

// writeCommand writes c's summary, usage, details (unless they are parent's) and flags.
func writeCommand(w io.Writer, c, parent *Command) {
	if s := strings.TrimSpace(c.Summary); s != "" {
		fmt.Fprintf(w, "%s\n\n", manual.Escape(s))
	}
	manual.Block(w, "text", strings.Join(usageLines(c.Usage), "\n"))
	if parent == nil || strings.TrimSpace(c.Details) != strings.TrimSpace(parent.Details) {
		manual.Prose(w, c.Details)
	}
	var rows [][]string
	c.Flags.VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		name := "-" + f.Name
		if kind != "" {
			name += " " + kind
		}
		rows = append(rows, []string{manual.Code(name), manual.Code(defaultOf(f)), manual.Cell(usage)})
	})
	if len(rows) > 0 {
		manual.Table(w, []string{"flag", "default", "what it is for"}, rows)
	}
}

// usageLines are a command's forms, one a line, as its help prints them.
func usageLines(usage string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(usage), "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	return lines
}

// defaultOf is a flag's default as help shows one: none for a zero value.
func defaultOf(f *flag.Flag) string {
	switch f.DefValue {
	case "", "false", "0", "[]":
		return ""
	}
	return f.DefValue
}

// exitRows are ExitCodes with a command's own: its codes added, its meanings replacing theirs.
func exitRows(own []ExitCode) [][]string {
	all := slices.Clone(ExitCodes)
	for _, e := range own {
		if i := slices.IndexFunc(all, func(x ExitCode) bool { return x.Code == e.Code }); i >= 0 {
			all[i] = e
		} else {
			all = append(all, e)
		}
	}
	slices.SortFunc(all, func(a, b ExitCode) int { return a.Code - b.Code })
	rows := make([][]string, len(all))
	for i, e := range all {
		rows[i] = []string{fmt.Sprint(e.Code), manual.Cell(e.Means)}
	}
	return rows
}
