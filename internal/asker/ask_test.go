package asker_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/asker"
)

func TestAskPostsTheCommentAndPrintsTheIDOnceClarifyTookIt(t *testing.T) {
	w := newWorld(t)
	// Flags before and after the arguments, as people type them.
	code, out, errs := w.run(asker.Door.Ask, "--topic", "limits", "octo/widgets#42", "@maria",
		"Per API key or per client IP?", "--option", "per API key", "--option", "per client IP", "--fallback", "a")
	notModified, other, lines := w.wire.counts()
	t.Logf("bot ask by comment: %d requests GitHub counts, %d answered 304\n  %s", other, notModified, strings.Join(lines, "\n  "))
	if code != 0 || strings.TrimSpace(out) != "CLR-42-001" {
		t.Fatalf("bot ask: exit %d, stdout %q, stderr %q; want 0 and CLR-42-001", code, out, errs)
	}
	l, err := w.h.Ledger(repo, issue)
	if err != nil {
		t.Fatal(err)
	}
	c := l.Clarifications[0]
	if c.Asker.Login != agent || c.Target.Name != person || c.Topic != "limits" || len(c.Options) != 2 || c.Fallback != "a" {
		t.Errorf("the app's clarification: %+v; want coder-agent asking maria on limits with two options, fallback a", c)
	}
}

func TestAskPrintsTheRecordWithJSON(t *testing.T) {
	w := newWorld(t)
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key or per client IP?", "--json")
	if code != 0 || !strings.Contains(out, `"id": "CLR-42-001"`) || !strings.Contains(out, `"status": "pending"`) ||
		!strings.Contains(out, `"question": "Per API key or per client IP?"`) {
		t.Fatalf("bot ask --json: exit %d, stdout %s, stderr %s; want the pending record", code, out, errs)
	}
}

func TestAskRefusedExitsOneWithTheRefusalsCode(t *testing.T) {
	w := newWorld(t)
	w.deliver(w.h.Fake.CloseIssue(repo, issue, person))
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?")
	if code != 1 || strings.TrimSpace(out) != "issue-closed" {
		t.Fatalf("bot ask on a closed issue: exit %d, stdout %q, stderr %q; want 1 and issue-closed", code, out, errs)
	}
}

func TestAskNotTakenInTimeExitsFiveWithItsRef(t *testing.T) {
	w := newWorld(t)
	w.pump = false // GitHub delivers nothing: no app runs
	code, out, errs := w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--timeout", "30s")
	ref := regexp.MustCompile(`ask-[0-9a-f]{16}`).FindString(errs)
	if code != asker.ExitPosted || out != "\n" || !strings.Contains(errs, "not taken in time") || ref == "" {
		t.Fatalf("bot ask nobody takes: exit %d, stdout %q, stderr %q; want 5, an empty id line, \"not taken in time\" and the ref", code, out, errs)
	}
	code, out, errs = w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "And per client IP?", "--timeout", "30s", "--json")
	var rec clarify.AskRecord
	if code != asker.ExitPosted || json.Unmarshal([]byte(out), &rec) != nil || rec.Status != clarify.StatusPosted || rec.Ref == "" || rec.ID != "" {
		t.Fatalf("bot ask --json nobody takes: exit %d, stdout %s, stderr %s; want 5 and the posted record with its ref", code, out, errs)
	}

	// The app runs at last: the ask is found by its ref, and asking again is the same ask.
	w.pump = true
	code, out, errs = w.run(asker.Door.Ask, "octo/widgets#42", "@maria", "Per API key?", "--ref", ref)
	if code != 0 || strings.TrimSpace(out) != "CLR-42-001" {
		t.Fatalf("bot ask --ref %s again: exit %d, %q %q; want CLR-42-001", ref, code, out, errs)
	}
	code, out, errs = w.run(asker.Door.Status, "octo/widgets#42", "--ref", rec.Ref, "--json")
	if code != 0 || !strings.Contains(out, `"id": "CLR-42-002"`) {
		t.Errorf("bot status --ref of the second ask: exit %d, %s %s; want CLR-42-002", code, out, errs)
	}
}

func TestAskUsageMistakesExitTwo(t *testing.T) {
	w := newWorld(t)
	for name, args := range map[string][]string{
		"noQuestion":    {"octo/widgets#42", "@maria"},
		"badIssue":      {"octo/widgets", "@maria", "Why?"},
		"unknownFlag":   {"octo/widgets#42", "@maria", "Why?", "--nope"},
		"extraArgument": {"octo/widgets#42", "@maria", "Why", "not?"},
	} {
		code, out, errs := w.run(asker.Door.Ask, args...)
		if code != 2 || out != "" || errs == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and a word on stderr", name, code, out, errs)
		}
	}
	if n := len(w.h.Fake.Comments(repo, issue)); n != 0 {
		t.Errorf("a usage mistake posted %d comments", n)
	}
}
