package clarify

import "strings"

// maxMentions caps the people one round or ping @mentions. A role of dozens would turn every
// question into a broadcast that teaches people to mute the app; a role that large is better
// written as a team, which is one handle.
const maxMentions = 10

// mentionList is people without the handles in skip (lower case), each once whatever its
// case, in order, at most maxMentions; nil when nobody is left.
func mentionList(people []string, skip map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range people {
		h = strings.TrimPrefix(strings.TrimSpace(h), "@")
		key := strings.ToLower(h)
		if h == "" || skip[key] || seen[key] {
			continue
		}
		seen[key] = true
		if len(out) == maxMentions {
			break
		}
		out = append(out, h)
	}
	return out
}

// mentionedIn returns the handles (lower case, without "@") that a comment @mentions where
// GitHub notifies: text lines, outside code blocks, code spans, quotes and HTML comments.
// GitHub has notified them already, so the app need not mention them again. It errs towards
// reading too little as a mention: a handle missed here is mentioned twice, a handle wrongly
// read here is never told.
func mentionedIn(body string) map[string]bool {
	out := map[string]bool{}
	for _, l := range scanBody(body) {
		if l.kind != textLine || !strings.Contains(l.text, "@") {
			continue
		}
		for _, h := range handlesIn(withoutCodeSpans(l.text)) {
			out[strings.ToLower(h)] = true
		}
	}
	return out
}

// handlesIn finds the "@login" and "@org/team" in one line of text: an "@" that no word
// character, "/", "." or "@" comes right before (so an e-mail address is none), followed by a
// valid login and, for a team, "/" and a valid slug.
func handlesIn(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || (i > 0 && !mentionBoundary(s[i-1])) {
			continue
		}
		h, end := handleAt(s, i+1)
		if end < 0 {
			continue
		}
		if h != "" {
			out = append(out, h)
		}
		i = end - 1
	}
	return out
}

// handleAt reads the handle that starts at s[from], right after an "@": the login, or
// "login/team", and where it ends. The handle is "" for a login followed by a "/" and no
// valid team (nobody is notified, and the text up to the end is passed over); end is -1
// when no valid login starts there.
func handleAt(s string, from int) (handle string, end int) {
	end = scanWhile(s, from, func(c byte) bool { return isASCIIAlnum(c) || c == '-' })
	login := s[from:end]
	if LoginProblem(login) != "" {
		return "", -1
	}
	if end >= len(s) || s[end] != '/' {
		return login, end
	}
	slug := scanWhile(s, end+1, func(c byte) bool { return isASCIIAlnum(c) || c == '-' || c == '_' })
	if team := s[end+1 : slug]; team != "" && TeamSlugProblem(team) == "" {
		return login + "/" + team, slug
	}
	return "", slug
}

// scanWhile returns the index of the first byte of s from i on that ok refuses, or len(s).
func scanWhile(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

// mentionBoundary reports whether c may come right before the "@" of a mention.
func mentionBoundary(c byte) bool {
	return !isASCIIAlnum(c) && !strings.ContainsRune("_-/.@`", rune(c)) && c < 0x80
}

// withoutCodeSpans replaces the inline code spans of a line by a space: GitHub notifies
// nobody named inside one. Spans are found as htmlCommentStart finds them.
func withoutCodeSpans(l string) string {
	if !strings.Contains(l, "`") {
		return l
	}
	var b strings.Builder
	var unclosed map[int]bool
	for i := 0; i < len(l); {
		if l[i] != '`' {
			b.WriteByte(l[i])
			i++
			continue
		}
		n := runLength(l[i:], '`')
		if !unclosed[n] {
			if end := closingBackticks(l[i+n:], n); end >= 0 {
				b.WriteByte(' ')
				i += n + end + n
				continue
			}
			if unclosed == nil {
				unclosed = make(map[int]bool)
			}
			unclosed[n] = true
		}
		b.WriteString(l[i : i+n])
		i += n
	}
	return b.String()
}
