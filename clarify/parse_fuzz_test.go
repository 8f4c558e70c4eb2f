package clarify

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks what must hold for any comment body: Parse never panics, every refusal
// says what was wrong and what to type instead, every field comes back trimmed and every id
// normalised, and a command (or a mention) placed only inside a code fence or a block quote
// is never taken.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.body)
	}
	for _, tc := range scanCases {
		f.Add(tc.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkParse(t, body)

		for _, wrapped := range []string{fenced(body, '`'), fenced(body, '~'), quoted(body)} {
			cmd, err := Parse(wrapped)
			if err != nil || cmd.Kind != CmdNone {
				t.Fatalf("Parse(%q) = %#v, %v; a fenced or quoted command must not count", wrapped, cmd, err)
			}
			if cmd.ID != "" {
				t.Fatalf("Parse(%q) found id %q in code or a quote", wrapped, cmd.ID)
			}
		}
		if cmd, _ := Parse(quoted(body)); cmd.Text != "" {
			t.Fatalf("Parse(%q).Text = %q; quoted lines are not the reply's words", quoted(body), cmd.Text)
		}
		// Whom a comment notified is read by the same scanner: only handles, and none from
		// code or quotes.
		for h := range mentionedIn(body) {
			org, team, isTeam := strings.Cut(h, "/")
			if LoginProblem(org) != "" || (isTeam && TeamSlugProblem(team) != "") || h != asciiLower(h) {
				t.Fatalf("mentionedIn(%q) holds %q, which is no handle", body, h)
			}
		}
		if got := mentionedIn(fenced(body, '`')); len(got) != 0 {
			t.Fatalf("mentionedIn(%q) = %v; a fence notifies nobody", fenced(body, '`'), got)
		}
		if got := mentionedIn(quoted(body)); len(got) != 0 {
			t.Fatalf("mentionedIn(%q) = %v; a quote notifies nobody", quoted(body), got)
		}
	})
}

// checkParse asserts the invariants of one Parse call.
func checkParse(t *testing.T, body string) {
	t.Helper()
	cmd, err := Parse(body)
	if err != nil {
		checkRefusal(t, body, err)
		return
	}
	checkParsedFields(t, body, cmd)
	checkParsedOptions(t, body, cmd)
}

// checkRefusal asserts that a refusal is a *ParseError that says what was wrong and what to try.
func checkRefusal(t *testing.T, body string, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(%q) returned %T %v, want a *ParseError", body, err, err)
	}
	if pe.Problem == "" || pe.Try == "" || pe.Line == "" {
		t.Fatalf("Parse(%q) = %#v: a refusal needs its Line, Problem and Try", body, pe)
	}
	if !strings.Contains(pe.Try, "`") {
		t.Fatalf("Parse(%q): Try %q shows no example in backticks", body, pe.Try)
	}
}

// checkParsedFields asserts that every field is trimmed, the id is normalised and a
// command that carries text has it.
func checkParsedFields(t *testing.T, body string, cmd Command) {
	t.Helper()
	for name, v := range map[string]string{
		"Text": cmd.Text, "Target": cmd.Target, "Topic": cmd.Topic, "Type": cmd.Type,
		"Fallback": cmd.Fallback, "Confidence": cmd.Confidence, "Risk": cmd.Risk, "ID": cmd.ID,
	} {
		if v != strings.TrimSpace(v) {
			t.Fatalf("Parse(%q).%s = %q is not trimmed", body, name, v)
		}
	}
	if e, err := ParseExpect(cmd.Expect); err != nil || e.String() != cmd.Expect {
		t.Fatalf("Parse(%q).Expect = %q is not as Expect.String writes it", body, cmd.Expect)
	}
	if cmd.ID != "" {
		if id, ok := NormalizeID(cmd.ID); !ok || id != cmd.ID {
			t.Fatalf("Parse(%q).ID = %q is not a normalised id", body, cmd.ID)
		}
	}
	switch cmd.Kind {
	case CmdAsk, CmdFollowup, CmdRespond, CmdAssume:
		if cmd.Text == "" {
			t.Fatalf("Parse(%q) = %#v: a %s needs its text", body, cmd, cmd.Kind)
		}
	}
}

// checkParsedOptions asserts that options are keyed a, b, c… with text and the fallback names one.
func checkParsedOptions(t *testing.T, body string, cmd Command) {
	t.Helper()
	for i, o := range cmd.Options {
		if o.Key != string(rune('a'+i)) || o.Text == "" {
			t.Fatalf("Parse(%q).Options[%d] = %#v", body, i, o)
		}
	}
	if cmd.Fallback != "" && (len(cmd.Fallback) != 1 || int(cmd.Fallback[0]-'a') >= len(cmd.Options)) {
		t.Fatalf("Parse(%q).Fallback = %q names no option of %v", body, cmd.Fallback, cmd.Options)
	}
}

// fenced puts body inside a code fence that none of its lines can close.
func fenced(body string, c byte) string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	longest, run := 0, 0
	for i := 0; i < len(body); i++ {
		if body[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat(string(c), max(3, longest+1))
	return "Example:\n" + fence + "\n" + body + "\n" + fence
}

// quoted quotes every line of body, as an e-mail reply quotes the thread.
func quoted(body string) string {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.ReplaceAll(body, "\r", "\n")
	return "> " + strings.ReplaceAll(body, "\n", "\n> ")
}

// FuzzNormalizeID checks that a normalised id is a fixed point and looks like CLR-<n>-<nnn>.
func FuzzNormalizeID(f *testing.F) {
	for _, s := range []string{"clr-42-1", "CLR-42-001", "CLR-0-1", "CLR-1-1234", "clr--1", "CLR-١-١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := NormalizeID(s)
		if !ok {
			if id != "" {
				t.Fatalf("NormalizeID(%q) = %q, false; want no id", s, id)
			}
			return
		}
		again, ok := NormalizeID(id)
		if !ok || again != id {
			t.Fatalf("NormalizeID(%q) = %q, but NormalizeID(%q) = %q, %v", s, id, id, again, ok)
		}
		if !strings.HasPrefix(id, "CLR-") || firstID(id) != id {
			t.Fatalf("NormalizeID(%q) = %q does not read back as an id", s, id)
		}
	})
}
