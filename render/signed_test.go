package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestSignedStatusHoldsTheLedgerWholeAndVerifies: the body bot ledger import -status
// prints verifies under the issue's keys, lists no archives (their clarifications are in
// it), carries no head, and a body GitHub would refuse is an error instead.
func TestSignedStatusHoldsTheLedgerWholeAndVerifies(t *testing.T) {
	keys := Keyring{Current: []byte("signed-status-key-0123456789abcd")}.Issue("acme", "widgets", 42)
	l := richLedger()
	l.Archives, l.Head = []int64{9001}, "head-sum"
	body, err := SignedStatus(l, keys)
	if err != nil {
		t.Fatal(err)
	}
	got, err := keys.DecodeLedger(body)
	if err != nil {
		t.Fatalf("the body does not verify under the issue's keys: %v", err)
	}
	if len(got.Archives) != 0 || got.Head != "" || len(got.Clarifications) != len(l.Clarifications) {
		t.Errorf("archives %v, head %q, %d clarifications; want none, none, %d", got.Archives, got.Head, len(got.Clarifications), len(l.Clarifications))
	}
	if _, err := (Keyring{Current: []byte("another-key-0123456789abcdefghij")}).Issue("acme", "widgets", 42).DecodeLedger(body); err == nil {
		t.Error("the body verifies under another key")
	}

	// Text that does not compress, twice what GitHub takes in one comment: the ledger's
	// block alone outgrows the body.
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 2*maxCommentChars)
	for i := range noise {
		noise[i] = byte('a' + r.IntN(26))
	}
	huge := clarify.Ledger{Version: 1, Issue: 42, Clarifications: l.Clarifications[:1]}
	huge.Clarifications[0].Thread = []clarify.Entry{{Round: 1, Kind: "question", Author: "bot-agent", Text: string(noise)}}
	if _, err := SignedStatus(huge, keys); err == nil || !strings.Contains(err.Error(), "over the 65,536") {
		t.Errorf("err = %v, want the body refused as over GitHub's limit", err)
	}
}
