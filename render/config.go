package render

import (
	"strings"
)

// ConfigProblem returns the comment telling an issue that the repository's Clarify config
// could not be used: which file, where and what, and that the defaults apply meanwhile.
// problems holds one line per problem, as the config parser wrote them.
func ConfigProblem(source, path string, problems []string, key string) string {
	var b strings.Builder
	b.WriteString("**Clarify could not use its configuration** · `" + codeText(path) + "`")
	if source != "" {
		b.WriteString(" in `" + codeText(source) + "`")
	}
	b.WriteString("\n\n")
	for _, p := range problems {
		b.WriteString("- " + inline(p, capReason) + "\n")
	}
	b.WriteString("\nThe defaults apply until the file is fixed. `bot config check FILE` checks a file before you push it; docs/config.md lists every key.\n")
	return finish(b.String(), key, Record{V: RecordVersion, Kind: "config-problem"})
}

// codeText makes text safe inside a single-backtick code span.
func codeText(s string) string {
	s = strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s)
	return breakComments(clip(s, capReason, false))
}
