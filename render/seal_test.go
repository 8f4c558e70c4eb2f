package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// TestSealedMarkersAreTheIssuesAlone: a marker the app sealed verifies in its issue, under
// its current key or one before a rotation; the plain marker anyone can type, a seal made
// for another issue or repository, a seal edited by one character, and a seal of another
// marker moved onto this one do not.
func TestSealedMarkersAreTheIssuesAlone(t *testing.T) {
	ring := Keyring{Current: []byte("ledger key"), Previous: [][]byte{[]byte("old key")}}
	keys := ring.Issue("octo", "widgets", 42)
	round := Marker("round:CLR-42-001:1")
	body := Round(clarify.Clarification{ID: "CLR-42-001", Topic: "Rate limits", Round: 1, MaxRounds: 5,
		Asker: clarify.Party{Login: "coder-agent"}, Target: clarify.Target{Kind: clarify.TargetLogin, Name: "maria"}},
		1, nil, "round:CLR-42-001:1")
	sealed := keys.Seal(body, round)
	if sealed == body || !keys.Sealed(sealed, round) || !HasMarker(sealed, "round:CLR-42-001:1") {
		t.Fatalf("the round is not sealed:\n%s", sealed)
	}
	if strings.Contains(sealed, round) {
		t.Errorf("the plain marker is still in the sealed body:\n%s", sealed)
	}
	if again := keys.Seal(sealed, round); again != sealed {
		t.Errorf("sealing twice changed the body:\n%s", again)
	}
	if got := keys.SealedMarks(sealed); !slices.Equal(got, []string{round}) {
		t.Errorf("SealedMarks = %q, want the round's marker", got)
	}
	old := Keyring{Current: []byte("old key")}.Issue("octo", "widgets", 42).Seal(body, round)
	if !keys.Sealed(old, round) {
		t.Error("a marker sealed before a key rotation does not verify")
	}
	other := Marker("round:CLR-42-001:2")
	moved := strings.Replace(sealed, "round:CLR-42-001:1 ", "round:CLR-42-001:2 ", 1)
	i := strings.LastIndex(sealed, " -->")
	edited := sealed[:i-1] + string(sealed[i-1]^1) + sealed[i:]
	refused := map[string]struct {
		keys IssueKeys
		body string
		mark string
	}{
		"plainMarker":        {keys, body, round},
		"anotherIssue":       {ring.Issue("octo", "widgets", 43), sealed, round},
		"anotherRepository":  {ring.Issue("octo", "gadgets", 42), sealed, round},
		"keyNotInTheRing":    {Keyring{Current: []byte("new key")}.Issue("octo", "widgets", 42), sealed, round},
		"sealEdited":         {keys, edited, round},
		"sealMovedToAnother": {keys, moved, other},
	}
	for name, tc := range refused {
		if tc.keys.Sealed(tc.body, tc.mark) || len(tc.keys.SealedMarks(tc.body)) != 0 {
			t.Errorf("%s: the marker verifies", name)
		}
	}
}

// TestTheStatusMarkerIsSealedAfterUserText: Seal takes the last status marker, the one
// the app writes after the table, never one a user typed into a topic.
func TestTheStatusMarkerIsSealedAfterUserText(t *testing.T) {
	keys := Keyring{Current: []byte("ledger key")}.Issue("octo", "widgets", 42)
	l := clarify.NewLedger(42)
	l.Clarifications = []clarify.Clarification{{ID: "CLR-42-001", Topic: StatusMarker, Status: clarify.Pending, Round: 1, MaxRounds: 5}}
	block, err := keys.EncodeLedger(l)
	if err != nil {
		t.Fatal(err)
	}
	body := keys.Seal(Status(l, block), StatusMarker)
	if !keys.Sealed(body, StatusMarker) || !IsStatus(body) {
		t.Fatalf("the status comment is not sealed:\n%s", body)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if n := len(lines); n < 2 || lines[n-1] != block || !strings.HasPrefix(lines[n-2], markOpen(StatusMarker)+sealTag) {
		t.Errorf("the sealed marker is not the one before the ledger:\n%s", body)
	}
}

// TestASealVouchesForTheWholeBody: the seal covers the comment's text, record and blocks,
// so its sealed marker copied into other text (another workflow's comment by the same
// account) does not verify, nor does the app's comment with a word changed; the same body
// given back with "\r\n" line ends (an edit in GitHub's web page) still does.
func TestASealVouchesForTheWholeBody(t *testing.T) {
	keys := Keyring{Current: []byte("ledger key")}.Issue("octo", "widgets", 42)
	mark := Marker("reply:1001")
	sealed := keys.Seal("@coder-agent this ask is refused: the issue is closed.\n\n"+
		`<!-- clarify:record {"v":1,"kind":"refusal","code":"issue-closed","ref":"step-1"} -->`+"\n"+mark+"\n", mark)
	i := strings.Index(sealed, markOpen(mark))
	copied := `<!-- clarify:record {"v":1,"kind":"refusal","code":"issue-closed","ref":"step-2"} -->` + "\n" + sealed[i:]
	quoted := "/clarify @maria Is this right?\n> " + strings.ReplaceAll(sealed, "\n", "\n> ")
	refused := map[string]string{
		"copiedUnderAnotherRecord": copied,
		"quotedInACommand":         quoted,
		"aWordChanged":             strings.Replace(sealed, "closed", "locked", 1),
		"textAdded":                sealed + "and more\n",
	}
	for name, body := range refused {
		if keys.Sealed(body, mark) || len(keys.SealedMarks(body)) != 0 {
			t.Errorf("%s: the seal verifies", name)
		}
	}
	crlf := strings.ReplaceAll(sealed, "\n", "\r\n")
	if !keys.Sealed(sealed, mark) || !keys.Sealed(crlf, mark) || !slices.Equal(keys.SealedMarks(crlf), []string{mark}) {
		t.Errorf("the app's sealed body does not verify as written, or with \\r\\n line ends")
	}
}

// TestAMarkerSealedAloneSaysOnlyThatItWasPosted: a seal of the marker alone (v1, how comments
// were sealed before) still tells that the app posted a message carrying it, so that nothing
// is posted twice, but no longer makes a comment the app's.
func TestAMarkerSealedAloneSaysOnlyThatItWasPosted(t *testing.T) {
	keys := Keyring{Current: []byte("ledger key")}.Issue("octo", "widgets", 42)
	mark := Marker("round:CLR-42-001:1")
	v1 := markOpen(mark) + b64url.EncodeToString(sign(keys.Signing(), []byte(markLabel+mark))) + " -->"
	body := "Any text at all\n" + v1 + "\n"
	if !keys.Posted(body, mark) {
		t.Error("a v1 seal does not tell that the message was posted")
	}
	if keys.Sealed(body, mark) || len(keys.SealedMarks(body)) != 0 {
		t.Error("a v1 seal makes the comment the app's")
	}
	if keys.Posted("Any text\n"+mark+"\n", mark) {
		t.Error("a plain marker tells that the app posted it")
	}
}
