package handlers

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

func TestOnlyAnUntouchedMirrorOfTheAppsStandsForItsSender(t *testing.T) {
	b := NewBase(Options{AppSlug: "clarify", LedgerKey: []byte("ledger key")})
	ref := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 42}
	block, err := b.mirrorBlock(ref, render.DispatchCopy{V: render.DispatchCopyVersion, Delivery: "g1", Login: "coder-agent", Type: "Bot", Command: "/clarify @maria Per key?"})
	if err != nil {
		t.Fatal(err)
	}
	body := render.Mirror("coder-agent", "/clarify @maria Per key?", "", []string{"maria"}, block, dispatchKey("g1"))
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
func checkMirrorCopiesRefused(t *testing.T, b *Base, ref clarify.IssueRef, block string, mirror *github.IssueComment) {
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
	if _, ok := b.mirrorInput(clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 43}, mirror); ok {
		t.Error("a mirror pasted into another issue must not verify")
	}
}

// checkFoldTakesMirror asserts that the fold takes the mirror read as in for the sender's
// comment, and every other comment of the app's as none.
func checkFoldTakesMirror(t *testing.T, b *Base, mirror *github.IssueComment, in input) {
	t.Helper()
	snap := &issueRun{snapshot: snapshot{comments: []*github.IssueComment{mirror, comment(1002, "clarify[bot]", foldT0, "a round")}},
		runState: runState{mirrors: map[int64]input{1001: in}}}
	ins := eventsOf(b, snap, trigger{Kind: triggerTick, At: foldT0})
	if len(ins) != 2 || ins[0].user.GetLogin() != "coder-agent" || ins[1].user.GetLogin() != "clarify[bot]" {
		t.Fatalf("events = %+v", ins)
	}
}
