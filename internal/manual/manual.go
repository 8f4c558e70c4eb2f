// Package manual writes the reference pages made from the code (docs/cli.md from the
// command tables, docs/mcp.md from the MCP tools) and checks a checked-in page against a
// fresh one: a command or a tool changed without its page regenerated fails its test.
// Pure except Check, which reads (and with update writes) the page.
package manual

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// Generated is the first line of a generated page, saying how it is made again.
func Generated(how string) string {
	return "<!-- Generated from the code by `" + how + "`: edit the code, not this page. -->\n"
}

// Check compares the page at path with want. With update it writes want there instead;
// otherwise a page that differs is an error naming the first line that differs and how
// (regen) to make the page again.
func Check(path string, want []byte, update bool, regen string) error {
	if update {
		return os.WriteFile(path, want, 0o644)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w: run %s to write it", err, regen)
	}
	if bytes.Equal(got, want) {
		return nil
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	line := 0
	for line < len(g) && line < len(w) && g[line] == w[line] {
		line++
	}
	at := func(lines []string) string {
		if line < len(lines) {
			return lines[line]
		}
		return "(end of page)"
	}
	return fmt.Errorf("%s is not what the code makes; run %s to regenerate it.\nline %d is  %q\nthe code makes %q",
		path, regen, line+1, at(g), at(w))
}

// Escape makes text, written for a terminal, read as the same text in Markdown: the
// characters that would start emphasis, code, a link or an HTML tag are escaped.
func Escape(text string) string {
	return escaper.Replace(text)
}

var escaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "<", `\<`, ">", `\>`, "[", `\[`, "]", `\]`)

// Cell is text as one cell of a table: Escape, with the cell's separator escaped too and
// the text on one line.
func Cell(text string) string {
	return strings.ReplaceAll(Escape(strings.Join(strings.Fields(text), " ")), "|", `\|`)
}

// Code is text as a code span in a cell: backticks that hold it whatever it holds, the
// cell's separator escaped.
func Code(text string) string {
	if text == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		pad = " "
	}
	return strings.ReplaceAll(fence+pad+text+pad+fence, "|", `\|`)
}

// Table writes a Markdown table: the header's cells, then each row's, as given (Cell and
// Code make them).
func Table(w io.Writer, header []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

// Block writes text as a fenced block of lang, for text whose lines and spaces matter.
func Block(w io.Writer, lang, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	fmt.Fprintf(w, "%s%s\n%s\n%s\n\n", fence, lang, strings.TrimRight(text, "\n"), fence)
}

// Prose writes help text, written for a terminal, as Markdown: each paragraph (lines
// between blank ones) as a paragraph, except one with an indented line (a table, an
// example, a listing), which keeps its lines as a text block.
func Prose(w io.Writer, text string) {
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		para = strings.Trim(para, "\n")
		if para == "" {
			continue
		}
		if indented(para) {
			Block(w, "text", para)
			continue
		}
		lines := strings.Split(para, "\n")
		for i, l := range lines {
			lines[i] = escapeStart(Escape(l))
		}
		fmt.Fprintf(w, "%s\n\n", strings.Join(lines, "\n"))
	}
}

// escapeStart escapes what would make a line a heading, a list item or a rule.
func escapeStart(line string) string {
	digits := strings.TrimLeft(line, "0123456789")
	switch {
	case strings.HasPrefix(line, "#"), strings.HasPrefix(line, "-"), strings.HasPrefix(line, "+"), strings.HasPrefix(line, "="):
		return `\` + line
	case len(digits) < len(line) && (strings.HasPrefix(digits, ".") || strings.HasPrefix(digits, ")")):
		n := len(line) - len(digits)
		return line[:n] + `\` + line[n:]
	}
	return line
}

func indented(para string) bool {
	for _, l := range strings.Split(para, "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			return true
		}
	}
	return false
}
