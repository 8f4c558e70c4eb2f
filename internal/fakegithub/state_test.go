package fakegithub

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

func TestFingerprint(t *testing.T) {
	f := newFixture(t)
	_, id := f.s.Comment(testRepo, 42, "alice", "question")
	fp := f.s.Fingerprint()
	if fp != f.s.Fingerprint() {
		t.Fatal("fingerprint is not stable")
	}
	// Reads, token exchanges and no-op writes change nothing.
	f.client.Issues.ListComments(f.ctx, "octo", "widgets", 42, nil)
	f.client.Issues.Get(f.ctx, "octo", "widgets", 42)
	f.s.Advance(time.Hour)
	if fp != f.s.Fingerprint() {
		t.Errorf("reads changed the fingerprint:\n%s\n---\n%s", fp, f.s.Fingerprint())
	}

	changes := map[string]func(){
		"label added": func() {
			f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active"})
		},
		"label again (no change)": nil,
		"reaction": func() {
			f.client.Reactions.CreateIssueCommentReaction(f.ctx, "octo", "widgets", id, "eyes")
		},
		"comment edited": func() {
			f.client.Issues.EditComment(f.ctx, "octo", "widgets", id, &github.IssueComment{Body: github.String("question, edited")})
		},
		"repo label recoloured": func() {
			f.client.Issues.EditLabel(f.ctx, "octo", "widgets", "clarification:active", &github.Label{Color: github.String("0e8a16")})
		},
		"closed": func() { f.s.CloseIssue(testRepo, 42, "alice") },
	}
	for _, name := range []string{"label added", "label again (no change)", "reaction", "comment edited", "repo label recoloured", "closed"} {
		before := f.s.Fingerprint()
		if change := changes[name]; change != nil {
			change()
		} else {
			f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active"})
		}
		changed := before != f.s.Fingerprint()
		if wantChange := changes[name] != nil; changed != wantChange {
			t.Errorf("%s: fingerprint changed = %v, want %v", name, changed, wantChange)
		}
	}
	for _, want := range []string{`label "clarification:active" color=0e8a16`, `issue #42 closed title="Pick a timezone" labels=["clarification:active"]`, `body="question, edited"`, "reaction eyes by clarify[bot]"} {
		if !strings.Contains(f.s.Fingerprint(), want) {
			t.Errorf("fingerprint lacks %q:\n%s", want, f.s.Fingerprint())
		}
	}
}

func TestTranscript(t *testing.T) {
	f := newFixture(t)
	f.s.Comment(testRepo, 42, "alice", "Which timezone?")
	f.s.Advance(2 * time.Minute)
	c, _, err := f.client.Issues.CreateComment(f.ctx, "octo", "widgets", 42, &github.IssueComment{Body: github.String("<!-- clarify:ledger v1 abc -->\n**Status**\n<!-- marker\nspanning lines -->\n| id | state |")})
	if err != nil {
		t.Fatal(err)
	}
	f.s.React(testRepo, c.GetID(), "alice", "+1")
	f.s.React(testRepo, c.GetID(), "bob", "+1")
	f.s.React(testRepo, c.GetID(), "bob", "eyes")
	f.s.Advance(time.Minute)
	f.client.Issues.EditComment(f.ctx, "octo", "widgets", c.GetID(), &github.IssueComment{Body: github.String("<!-- only hidden -->")})
	f.client.Issues.AddLabelsToIssue(f.ctx, "octo", "widgets", 42, []string{"clarification:active"})

	want := `Pick a timezone (#42)
state: open
labels: clarification:active

— alice · 2026-01-05 09:00 · opened

— alice · 2026-01-05 09:00
Which timezone?

— clarify[bot] · 2026-01-05 09:02 · edited
(nothing visible)
reactions: +1 alice, bob; eyes bob
`
	if got := f.s.Transcript(testRepo, 42); got != want {
		t.Errorf("transcript =\n%s\nwant\n%s", got, want)
	}
}

func TestVisibleText(t *testing.T) {
	tests := map[string]string{
		"plain":                        "plain",
		"a <!-- x --> b":               "a  b",
		"<!-- x -->\ntext\n<!-- y -->": "text",
		"text <!-- never closed":       "text",
		"<!---->":                      "",
	}
	for in, want := range tests {
		if got := visibleText(in); got != want {
			t.Errorf("visibleText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadersOnMissingThings(t *testing.T) {
	s := New(Options{})
	if s.Comments("no/repo", 1) != nil || s.IssueLabels("no/repo", 1) != nil || s.IssueState("no/repo", 1) != "" {
		t.Error("readers invented state")
	}
	if _, _, ok := s.RepoLabel("no/repo", "x"); ok {
		t.Error("RepoLabel found a label in a missing repository")
	}
	if s.Now() != DefaultStart {
		t.Errorf("clock starts at %v", s.Now())
	}
	fixed := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s = New(Options{Now: func() time.Time { return fixed }})
	s.Advance(time.Minute)
	if !s.Now().Equal(fixed.Add(time.Minute)) {
		t.Errorf("Advance on a custom clock: %v", s.Now())
	}
}
