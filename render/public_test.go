package render_test

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/render"
)

// TestACommentsSignatureHoldsOnlyForItsIssueAndText: the workflow's signature verifies
// under its public key for the comment as written (an edit in GitHub's page, which writes
// "\r\n", aside), and not for a changed text, another issue, or another key; the same
// body signs the same, so the app still tells an unchanged comment by its body.
func TestACommentsSignatureHoldsOnlyForItsIssueAndText(t *testing.T) {
	key, err := render.SigningKey([]byte("the workflow's ledger key, forty characters"))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := render.SigningKey([]byte("another workflow's ledger key of forty chars"))
	pub := render.VerifyKeys{key.Public().(ed25519.PublicKey)}
	body := render.SignComment(key, "Octo", "Widgets", 42, "Decided: per key.\n<!-- clarify:status -->")
	if again := render.SignComment(key, "Octo", "Widgets", 42, body); again != body {
		t.Errorf("signing a signed body again changed it:\n%s\n%s", body, again)
	}
	cases := map[string]struct {
		body        string
		repo        string
		number      int
		keys        render.VerifyKeys
		wantBelieve bool
	}{
		"as written":               {body, "octo/widgets", 42, pub, true},
		"with \\r\\n from the web": {strings.ReplaceAll(body, "\n<!-- clarify:status", "\r\n<!-- clarify:status"), "octo/widgets", 42, pub, true},
		"its text changed":         {strings.Replace(body, "per key", "per IP", 1), "octo/widgets", 42, pub, false},
		"copied to another issue":  {body, "octo/widgets", 43, pub, false},
		"another repository":       {body, "octo/gadgets", 42, pub, false},
		"listed keys are others":   {body, "octo/widgets", 42, render.VerifyKeys{other.Public().(ed25519.PublicKey)}, false},
		"no key listed":            {body, "octo/widgets", 42, nil, false},
		"unsigned":                 {render.Unsigned(body), "octo/widgets", 42, pub, false},
		"text written after it":    {body + "\nP.S.", "octo/widgets", 42, pub, false},
	}
	for name, tc := range cases {
		owner, repo, _ := strings.Cut(tc.repo, "/")
		if got := tc.keys.Signed(owner, repo, tc.number, tc.body); got != tc.wantBelieve {
			t.Errorf("%s: believed %v, want %v", name, got, tc.wantBelieve)
		}
	}
}

func TestAVerifyKeyReadsBackAsWritten(t *testing.T) {
	key, _ := render.SigningKey([]byte("k"))
	line := render.FormatVerifyKey(key.Public().(ed25519.PublicKey))
	pub, err := render.ParseVerifyKey(line)
	if err != nil || !pub.Equal(key.Public()) {
		t.Errorf("ParseVerifyKey(%q) = %v, %v", line, pub, err)
	}
	for _, bad := range []string{"hAMhwyyLPPLJvPO/mqTw/6T1SoT4hoOWkLsgpK02LCk=", "ed25519:c2hvcnQ=", "ed25519:not base64!"} {
		if _, err := render.ParseVerifyKey(bad); err == nil || !strings.Contains(err.Error(), "bot key public") {
			t.Errorf("ParseVerifyKey(%q): %v; want an error saying what to write", bad, err)
		}
	}
}
