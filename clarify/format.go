package clarify

import (
	"fmt"
	"slices"
	"strings"
)

// FormatCommand writes c as the comment that says it: the inverse of Parse, for commands
// that come without a comment (a repository_dispatch) and must be read, checked and
// applied exactly as the comment would be. Only what c's kind takes is written: an ask's or
// follow-up's long-form fields, an assumption's Confidence: and Risk:. One-line fields are
// written on one line (their words, one space apart); the text keeps its lines. c's Line
// is not read: the written command is the line.
//
// What FormatCommand checks is nothing: a command missing a part the kind needs (an ask's
// target, a follow-up's id) is written without it, and Parse says what is wrong with it.
func FormatCommand(c Command) string {
	head := commandHead(c)
	if c.Kind == CmdList || c.Kind == CmdStale || c.Kind == CmdStats || c.Kind == CmdShow {
		return head
	}
	lines := []string{joinWords(head, strings.TrimSpace(c.Text))}
	switch c.Kind {
	case CmdAsk, CmdFollowup:
		lines = append(lines, askFieldLines(c)...)
	case CmdAssume:
		lines = appendField(lines, "Confidence", c.Confidence)
		lines = appendField(lines, "Risk", c.Risk)
	}
	return strings.Join(lines, "\n")
}

// commandHead is the command line up to the text: the command word, the subcommand, the
// target and flag of an ask, the id.
func commandHead(c Command) string {
	id := oneLine(c.ID)
	switch c.Kind {
	case CmdAsk:
		target := c.Target
		if !c.BareTarget {
			target = "@" + target
		}
		target = oneLine(target)
		flag := ""
		if c.NonBlocking {
			flag = "--non-blocking"
		}
		return joinWords("/clarify", target, flag)
	case CmdRespond:
		return joinWords("/respond", id)
	case CmdAssume:
		return "/assume"
	case CmdList:
		return "/clarify"
	}
	return joinWords("/clarify", string(c.Kind), id)
}

// askFieldLines are the long form's lines of an ask or follow-up, in the order docs/agents.md
// lists them; options are written under the keys they carry.
func askFieldLines(c Command) []string {
	lines := appendField(nil, "Topic", c.Topic)
	lines = appendField(lines, "Type", c.Type)
	if len(c.Options) > 0 {
		lines = append(lines, "Options:")
		for _, o := range c.Options {
			lines = append(lines, oneLine(o.Key)+") "+oneLine(o.Text))
		}
	}
	lines = appendField(lines, "Fallback", c.Fallback)
	lines = appendField(lines, "Expect", c.Expect)
	if c.Needs != 0 {
		lines = append(lines, fmt.Sprintf("Needs: %d", c.Needs))
	}
	if len(c.Evidence) > 0 {
		lines = append(lines, "Evidence:")
		for _, e := range c.Evidence {
			lines = append(lines, "- "+oneLine(e))
		}
	}
	if c.Ref != "" {
		// As given, not as words: the ref comes back byte for byte (RefProblem keeps it one line).
		lines = append(lines, "Ref: "+c.Ref)
	}
	return lines
}

// appendField adds "Name: value" when value has words.
func appendField(lines []string, name, value string) []string {
	if v := oneLine(value); v != "" {
		return append(lines, name+": "+v)
	}
	return lines
}

// oneLine is a field that a command takes on one line: its words, one space apart.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// joinWords joins the non-empty parts with a space.
func joinWords(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " ")
}
