package handlers

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

func TestDispatchPayloadBecomesTheCommentThatSaysTheSame(t *testing.T) {
	no := false
	cases := map[string]struct {
		payload DispatchPayload
		want    string
	}{
		"askLongForm": {
			DispatchPayload{Action: "ask", Target: "@maria", Question: "Per key or per IP?", Topic: "rate-limit  scope",
				Type: "security-decision", Options: []string{"per key", "per\nIP"}, Fallback: "a", Evidence: []string{"docs/limits.md"}},
			"/clarify @maria Per key or per IP?\nTopic: rate-limit scope\nType: security-decision\nOptions:\na) per key\nb) per IP\nFallback: a\nEvidence:\n- docs/limits.md",
		},
		"askNonBlockingToARole": {DispatchPayload{Action: "Ask", Target: "architect", Question: "Which DB?", Blocking: &no},
			"/clarify architect --non-blocking Which DB?"},
		"followup":        {DispatchPayload{Action: "followup", ID: "CLR-42-001", Question: "And bursts?"}, "/clarify followup CLR-42-001 And bursts?"},
		"respondByName":   {DispatchPayload{Action: "respond", ID: "CLR-42-001", Answer: "Per key."}, "/respond CLR-42-001 Per key."},
		"resolveTheOnly":  {DispatchPayload{Action: "resolve"}, "/clarify resolve"},
		"resolveDecided":  {DispatchPayload{Action: "resolve", ID: "CLR-42-001", Decision: "Per key."}, "/clarify resolve CLR-42-001 Per key."},
		"abandon":         {DispatchPayload{Action: "abandon", ID: "CLR-42-001"}, "/clarify abandon CLR-42-001"},
		"escalateWithWhy": {DispatchPayload{Action: "escalate", ID: "CLR-42-001", Reason: "No progress."}, "/clarify escalate CLR-42-001 No progress."},
		"assume": {DispatchPayload{Action: "assume", Decision: "UTC everywhere", Confidence: "high", Risk: "local\nreports"},
			"/assume UTC everywhere\nConfidence: high\nRisk: local reports"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, problem := tc.payload.command()
			if problem != nil || got != tc.want {
				t.Fatalf("command = %q, %+v; want %q", got, problem, tc.want)
			}
			if _, err := clarify.Parse(got); err != nil {
				t.Errorf("the parser refuses the command built: %v", err)
			}
		})
	}
}

func TestParseDispatchReadsTheIssueLeniently(t *testing.T) {
	cases := map[string]int{
		`{"issue": 42, "action": "resolve"}`:    42,
		`{"issue": "42", "action": "resolve"}`:  42,
		`{"issue": " 7 ", "action": "resolve"}`: 7,
		`{"issue": 0, "action": "resolve"}`:     0,
		`{"issue": "#42", "action": "resolve"}`: 0,
		`{"action": "resolve"}`:                 0,
		`["not", "an", "object"]`:               0,
		`null`:                                  0,
	}
	for raw, want := range cases {
		if _, got := parseDispatch(json.RawMessage(raw), "g", &github.User{}); got != want {
			t.Errorf("%s: issue %d, want %d", raw, got, want)
		}
	}
}

func TestOnlyAnUntouchedMirrorOfTheAppsStandsForItsSender(t *testing.T) {
	b := &Base{AppSlug: "clarify", LedgerKey: []byte("ledger key")}
	ref := issueRef{Owner: "octo", Repo: "widgets", Number: 42}
	block, err := b.mirrorBlock(ref, render.DispatchCopy{V: render.DispatchCopyVersion, Delivery: "g1", Login: "coder-agent", Type: "Bot", Command: "/clarify @maria Per key?"})
	if err != nil {
		t.Fatal(err)
	}
	body := render.Mirror("coder-agent", "/clarify @maria Per key?", []string{"maria"}, block, dispatchKey("g1"))
	mirror := comment(1001, "clarify[bot]", foldT0, body)

	in, ok := b.mirrorInput(ref, mirror)
	if !ok || in.user.GetLogin() != "coder-agent" || in.user.GetType() != "Bot" || in.event.CommentID != 1001 ||
		in.event.Body != "/clarify @maria Per key?" || in.event.Edited {
		t.Fatalf("the mirror reads as %+v (%v)", in, ok)
	}

	edited := comment(1001, "clarify[bot]", foldT0, body)
	edited.UpdatedAt = &github.Timestamp{Time: foldT0.Add(time.Minute)}
	if in, ok := b.mirrorInput(ref, edited); !ok || !in.event.Edited {
		t.Errorf("an edited mirror must read as an edited comment, whose command never runs: %+v", in)
	}
	checkMirrorCopiesRefused(t, b, ref, block, mirror)
	checkFoldTakesMirror(t, b, mirror, in)
}

// checkMirrorCopiesRefused asserts that the mirror stops standing for its sender once its
// signed copy is changed, it is pasted into someone else's comment, or into another issue.
func checkMirrorCopiesRefused(t *testing.T, b *Base, ref issueRef, block string, mirror *github.IssueComment) {
	t.Helper()
	const mirrorOpen, mirrorClose = "<!-- clarify:dispatch ", " -->"
	body := mirror.GetBody()
	// The same signature over a payload that names another sender.
	other, err := b.mirrorBlock(ref, render.DispatchCopy{V: render.DispatchCopyVersion, Delivery: "g1", Login: "maria", Type: "User", Command: "/clarify @maria Per key?"})
	if err != nil {
		t.Fatal(err)
	}
	payload, _, _ := strings.Cut(strings.TrimPrefix(other, mirrorOpen), ".")
	_, sig, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(block, mirrorOpen), mirrorClose), ".")
	forged := strings.Replace(body, block, mirrorOpen+payload+"."+sig+mirrorClose, 1)
	if forged == body {
		t.Fatal("the forgery did not take")
	}
	if _, ok := b.mirrorInput(ref, comment(1001, "clarify[bot]", foldT0, forged)); ok {
		t.Error("a mirror whose copy was changed must not verify")
	}
	if _, ok := b.mirrorInput(ref, comment(1002, "maria", foldT0, body)); ok {
		t.Error("a copy of a mirror in someone else's comment must not count")
	}
	if _, ok := b.mirrorInput(issueRef{Owner: "octo", Repo: "widgets", Number: 43}, mirror); ok {
		t.Error("a mirror pasted into another issue must not verify")
	}
}

// checkFoldTakesMirror asserts that the fold takes the mirror read as in for the sender's
// comment, and every other comment of the app's as none.
func checkFoldTakesMirror(t *testing.T, b *Base, mirror *github.IssueComment, in input) {
	t.Helper()
	snap := &snapshot{comments: []*github.IssueComment{mirror, comment(1002, "clarify[bot]", foldT0, "a round")},
		mirrors: map[int64]input{1001: in}}
	ins := b.events(snap, trigger{Kind: triggerTick, At: foldT0})
	if len(ins) != 2 || ins[0].user.GetLogin() != "coder-agent" || ins[1].user.GetLogin() != "clarify[bot]" {
		t.Fatalf("events = %+v", ins)
	}
}
