// Package doccheck reads the project's Markdown (the README and docs/*.md) the way GitHub
// renders it, so that tests and CI can hold every example and link to working:
// fenced code blocks with their language, relative links, and the ids GitHub gives
// headings.
//
// Pure except Pages, which lists the files to read.
package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Block is one fenced code block of a Markdown file.
type Block struct {
	// Line is the line of its opening fence, counting from 1.
	Line int
	// Lang is the info string's first word (yaml, json, sh), lower case; "" when none.
	Lang string
	// Text is the block's content, with the fence's indentation taken off each line.
	Text string
}

// Link is one inline or reference link of a Markdown file, outside code.
type Link struct {
	Line   int
	Target string
}

// Pages lists the Markdown a reader is sent to: README.md at root and every docs/*.md.
func Pages(root string) ([]string, error) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	readme := filepath.Join(root, "README.md")
	if _, err := os.Stat(readme); err != nil {
		return nil, err
	}
	return append([]string{readme}, docs...), nil
}

var fenceOpen = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)")

// Blocks returns the fenced code blocks of src, in order. A block left open runs to the
// end of the file, as CommonMark has it.
func Blocks(src string) []Block {
	var out []Block
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		indent, fence, lang, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		b := Block{Line: i + 1, Lang: strings.ToLower(lang)}
		var body []string
		for i++; i < len(lines); i++ {
			if isClosingFence(lines[i], indent, fence) {
				break
			}
			body = append(body, dedent(lines[i], indent))
		}
		b.Text = strings.Join(body, "\n")
		if len(body) > 0 {
			b.Text += "\n"
		}
		out = append(out, b)
	}
	return out
}

// openingFence reads a fence's opening line. The fence may be indented (a block inside
// a list item is indented as the item's text); its content is then indented the same.
func openingFence(line string) (indent int, fence, lang string, ok bool) {
	trimmed := strings.TrimLeft(line, " ")
	indent = len(line) - len(trimmed)
	m := fenceOpen.FindStringSubmatch(trimmed)
	if m == nil {
		return 0, "", "", false
	}
	return indent, m[2], m[3], true
}

// isClosingFence: the same character, at least as many, and nothing else on the line.
func isClosingFence(line string, indent int, fence string) bool {
	t := strings.TrimSpace(line)
	return len(line)-len(strings.TrimLeft(line, " ")) <= indent+3 &&
		strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == ""
}

func dedent(line string, indent int) string {
	for n := 0; n < indent && strings.HasPrefix(line, " "); n++ {
		line = line[1:]
	}
	return line
}

// prose returns src with every fenced block's lines blanked, so that line numbers stay
// and nothing in a code block is taken for a heading or a link.
func prose(src string) []string {
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		indent, fence, _, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		lines[i] = ""
		for i++; i < len(lines); i++ {
			closing := isClosingFence(lines[i], indent, fence)
			lines[i] = ""
			if closing {
				break
			}
		}
	}
	return lines
}

var (
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
)

// Links returns the links of src outside code blocks and code spans, in order; a link
// whose text runs over two lines counts at the line of its target.
func Links(src string) []Link {
	lines := prose(src)
	for i, line := range lines {
		// Blanked, not removed, so that offsets still give line numbers.
		lines[i] = codeSpan.ReplaceAllStringFunc(line, func(span string) string {
			return strings.Repeat(" ", len(span))
		})
	}
	text := strings.Join(lines, "\n")
	var out []Link
	for _, m := range inlineLink.FindAllStringSubmatchIndex(text, -1) {
		line := strings.Count(text[:m[2]], "\n") + 1
		out = append(out, Link{Line: line, Target: text[m[2]:m[3]]})
	}
	for _, m := range refLink.FindAllStringSubmatchIndex(text, -1) {
		line := strings.Count(text[:m[2]], "\n") + 1
		out = append(out, Link{Line: line, Target: text[m[2]:m[3]]})
	}
	slices.SortStableFunc(out, func(a, b Link) int { return a.Line - b.Line })
	return out
}

var (
	atxHeading  = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	headingLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// Anchors returns the ids GitHub gives src's headings: the heading's text, lower case,
// with everything but letters, digits, spaces, hyphens and underscores dropped and spaces
// made hyphens; a repeated id gets -1, -2 and so on.
func Anchors(src string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(src) {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		id := slug(headingLink.ReplaceAllString(m[1], "$1"))
		if n := seen[id]; n > 0 {
			seen[id]++
			id = fmt.Sprintf("%s-%d", id, n)
		} else {
			seen[id] = 1
		}
		ids[id] = true
	}
	return ids
}

func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	topOn   = regexp.MustCompile(`(?m)^(on|"on"|'on')\s*:`)
	topJobs = regexp.MustCompile(`(?m)^jobs\s*:`)
)

// IsWorkflow says whether a YAML document is meant as a GitHub Actions workflow: `on` and
// `jobs` at its top. It reads the lines, not the parse, so that a workflow example that
// does not parse still goes to actionlint, which says where.
func IsWorkflow(text string) bool {
	return topOn.MatchString(text) && topJobs.MatchString(text)
}
