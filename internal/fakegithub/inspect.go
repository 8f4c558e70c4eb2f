package fakegithub

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Fingerprint dumps all state that the API can change, deterministically:
// per repository its labels, then per issue its state, labels and comments
// (id, author, timestamps, body, reactions). Two equal fingerprints mean
// nothing changed in between, e.g. when a replay must be a no-op.
func (s *Server) Fingerprint() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, k := range s.repoKeysLocked() {
		r := s.repos[k]
		fmt.Fprintf(&b, "repo %s installation=%d\n", r.fullName(), r.installation)
		for _, l := range r.allLabels() {
			fmt.Fprintf(&b, "  label %q color=%s description=%q\n", l.name, l.color, l.description)
		}
		numbers := make([]int, 0, len(r.issues))
		for n := range r.issues {
			numbers = append(numbers, n)
		}
		sort.Ints(numbers)
		for _, n := range numbers {
			is := r.issues[n]
			var labels []string
			for _, l := range r.sortedLabels(is) {
				labels = append(labels, strconv.Quote(l.name))
			}
			fmt.Fprintf(&b, "  issue #%d %s title=%q labels=[%s]\n", n, is.state, is.title, strings.Join(labels, " "))
			s.fingerprintRelationsLocked(&b, is)
			for _, c := range s.commentsOfLocked(is) {
				fmt.Fprintf(&b, "    comment %d by %s created=%s updated=%s\n      body=%q\n",
					c.id, c.author, c.created.Format(timeFormat), c.updated.Format(timeFormat), c.body)
				for _, r := range sortedReactions(c) {
					fmt.Fprintf(&b, "      reaction %s by %s\n", r.content, r.login)
				}
			}
		}
		s.fingerprintChecksLocked(&b, r)
	}
	return b.String()
}

const timeFormat = "2006-01-02T15:04:05Z"

// sortedReactions orders reactions by GitHub's content order, then by who and when.
func sortedReactions(c *comment) []*reaction {
	rank := map[string]int{}
	for i, rc := range reactionContents {
		rank[rc] = i
	}
	out := append([]*reaction(nil), c.reactions...)
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].content] < rank[out[j].content] })
	return out
}

// Transcript renders the issue as a reader sees it on github.com: title,
// state, labels, the description, then each comment as "— author · time"
// with HTML comments (<!-- … -->) hidden and a line of reactions.
func (s *Server) Transcript(repo string, number int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, is, err := s.issueLocked(repo, number)
	if err != nil {
		return err.Error() + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (#%d)\n", is.title, is.number)
	fmt.Fprintf(&b, "state: %s\n", is.state)
	var labels []string
	for _, l := range r.sortedLabels(is) {
		labels = append(labels, l.name)
	}
	if len(labels) == 0 {
		labels = []string{"(none)"}
	}
	fmt.Fprintf(&b, "labels: %s\n", strings.Join(labels, ", "))
	fmt.Fprintf(&b, "\n— %s · %s · opened\n", is.author, is.created.Format(transcriptTime))
	if text := visibleText(is.body); text != "" {
		b.WriteString(text + "\n")
	}
	for _, c := range s.commentsOfLocked(is) {
		edited := ""
		if !c.updated.Equal(c.created) {
			edited = " · edited"
		}
		fmt.Fprintf(&b, "\n— %s · %s%s\n", c.author, c.created.Format(transcriptTime), edited)
		if text := visibleText(c.body); text != "" {
			b.WriteString(text + "\n")
		} else {
			b.WriteString("(nothing visible)\n")
		}
		if line := reactionsLine(c); line != "" {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

const transcriptTime = "2006-01-02 15:04"

// VisibleText is a body as github.com renders it, for a reader's view: visibleText.
func VisibleText(body string) string { return visibleText(body) }

// visibleText removes HTML comments, which GitHub does not render, and the
// blank lines they leave (at either end, and runs of them). An unterminated comment hides the rest.
func visibleText(body string) string {
	var b strings.Builder
	for {
		start := strings.Index(body, "<!--")
		if start < 0 {
			b.WriteString(body)
			break
		}
		b.WriteString(body[:start])
		end := strings.Index(body[start+4:], "-->")
		if end < 0 {
			break
		}
		body = body[start+4+end+3:]
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		l = strings.TrimRight(l, " \t\r")
		// Markdown renders a run of blank lines as one: so does the transcript.
		if l == "" && len(lines) > 0 && lines[len(lines)-1] == "" {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

func reactionsLine(c *comment) string {
	var parts []string
	var current string
	var who []string
	flush := func() {
		if current != "" {
			parts = append(parts, current+" "+strings.Join(who, ", "))
		}
	}
	for _, r := range sortedReactions(c) {
		if r.content != current {
			flush()
			current, who = r.content, nil
		}
		who = append(who, r.login)
	}
	flush()
	if len(parts) == 0 {
		return ""
	}
	return "reactions: " + strings.Join(parts, "; ")
}
