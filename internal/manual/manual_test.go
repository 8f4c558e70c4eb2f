package manual

import (
	"strings"
	"testing"
)

// TestProseReadsAsTheHelpSaysIt: help text keeps its words in Markdown: a tag-like
// <command>, a [bot] and a line that would start a list stay text, and an indented
// table keeps its lines in a block.
func TestProseReadsAsTheHelpSaysIt(t *testing.T) {
	var b strings.Builder
	Prose(&b, "Run gh clarify <command> as SLUG[bot]:\n-json prints *JSON*.\n\nSettings:\n  key  default\n  a    1\n")
	want := "Run gh clarify \\<command\\> as SLUG\\[bot\\]:\n\\-json prints \\*JSON\\*.\n\n" +
		"```text\nSettings:\n  key  default\n  a    1\n```\n\n"
	if b.String() != want {
		t.Errorf("Prose wrote\n%s\nwant\n%s", b.String(), want)
	}
	if got := Cell("a | b\n  c"); got != `a \| b c` {
		t.Errorf("Cell = %q", got)
	}
}
