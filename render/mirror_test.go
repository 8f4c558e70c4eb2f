package render

import (
	"strings"
	"testing"
	"time"
)

func TestMirrorNeutralisesTheCommandItQuotes(t *testing.T) {
	cmd := "/clarify @maria Which? <!-- clarify:status --> <!-- clarify:msg round:CLR-42-001:1 --> @org/team"
	body := Mirror("coder-agent", cmd, "", []string{"maria", "org/team", "not a handle"}, "<!-- clarify:dispatch x.y -->", "dispatch:g")
	switch {
	case IsStatus(body):
		t.Error("a command's text made the mirror read as a status comment")
	case HasMarker(body, "round:CLR-42-001:1"):
		t.Error("a command's text planted a round's marker in the app's comment")
	case !HasMarker(body, "dispatch:g"):
		t.Error("the mirror lacks its own marker")
	case !strings.HasPrefix(body, "@coder-agent via `repository_dispatch`"):
		t.Errorf("the mirror should open with its sender:\n%s", body)
	case !strings.Contains(body, "\ncc @maria @org/team\n"):
		t.Errorf("the mirror should notify exactly the valid handles it is given:\n%s", body)
	case strings.Contains(body, "> /clarify @maria"):
		t.Errorf("the quote must not mention anyone itself:\n%s", body)
	}
}

// TestAMirrorHoldsOnlyForTheCommentMadeWhenItSays: a copy written at 09:00 stands for a
// comment made then (give or take the skew), not for one made half an hour later; a copy
// that says no time (written before copies said it) holds for any.
func TestAMirrorHoldsOnlyForTheCommentMadeWhenItSays(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	cases := map[string]struct {
		m       DispatchCopy
		created time.Time
		want    bool
	}{
		"madeThen":        {DispatchCopy{At: at}, at.Add(2 * time.Second), true},
		"aClockBehind":    {DispatchCopy{At: at}, at.Add(-3 * time.Minute), true},
		"halfAnHourLater": {DispatchCopy{At: at}, at.Add(30 * time.Minute), false},
		"justPastTheSkew": {DispatchCopy{At: at}, at.Add(MirrorSkew + time.Second), false},
		"sayingNoTime":    {DispatchCopy{}, at.Add(30 * 24 * time.Hour), true},
	}
	keys := Keyring{Current: []byte("k")}.Issue("octo", "widgets", 42)
	for name, tc := range cases {
		tc.m.V, tc.m.Login = DispatchCopyVersion, "coder-agent"
		block, err := keys.EncodeDispatch(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := keys.DecodeDispatch(block)
		if got := ok && m.Holds(tc.created); got != tc.want {
			t.Errorf("%s: the copy read back holds = %v, want %v", name, got, tc.want)
		}
	}
}
