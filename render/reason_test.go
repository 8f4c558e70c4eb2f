package render

import (
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

func TestRefusalReasonIsWhatTheReplySaysOnOneLine(t *testing.T) {
	for to, want := range map[string]string{
		"coder-agent":      "`frob` is not a /clarify command. Try: `/clarify resolve CLR-42-001 <decision>`",
		"coder-agent[bot]": "`frob` is not a /clarify command. Try: `/clarify resolve CLR-42-001 <decision>`",
		"":                 "`frob` is not a /clarify command. Try: `/clarify resolve CLR-42-001 <decision>`",
	} {
		body := Reply(clarify.Reply{Kind: clarify.ReplyRefusal, To: to, Quote: "/clarify frob CLR-42-001", Code: clarify.CodeBadCommand,
			Problem: "`frob` is not a /clarify command.", Try: "`/clarify resolve CLR-42-001 <decision>`"}, clarify.Ledger{}, "reply:7")
		if got := RefusalReason(body); got != want {
			t.Errorf("to %q: RefusalReason = %q, want %q\nof:\n%s", to, got, want, body)
		}
	}
}

func TestIsMirrorOfFindsTheCommandsMirrorOnly(t *testing.T) {
	body := Mirror("coder-agent", "/clarify resolve CLR-42-001 per API key", "n0nce", nil, "<!-- clarify:dispatch x.y -->", "dispatch:g")
	if !IsMirrorOf(body, "/clarify resolve CLR-42-001 per API key", "n0nce") {
		t.Errorf("the mirror of the command is not found:\n%s", body)
	}
	for _, other := range []string{"/clarify resolve CLR-42-001", "/clarify resolve CLR-42-002 per API key", "/clarify abandon CLR-42-001"} {
		if IsMirrorOf(body, other, "n0nce") {
			t.Errorf("the mirror of another command is taken for %q", other)
		}
	}
	// The same command, sent by another with another nonce or none.
	for _, nonce := range []string{"other", ""} {
		if IsMirrorOf(body, "/clarify resolve CLR-42-001 per API key", nonce) {
			t.Errorf("the mirror of nonce n0nce is taken for that of nonce %q", nonce)
		}
	}
	plain := Mirror("coder-agent", "/clarify resolve CLR-42-001 per API key", "", nil, "<!-- clarify:dispatch x.y -->", "dispatch:g")
	if IsMirrorOf(plain, "/clarify resolve CLR-42-001 per API key", "n0nce") {
		t.Error("a mirror without a nonce is taken for that of a dispatch that carried one")
	}
}
