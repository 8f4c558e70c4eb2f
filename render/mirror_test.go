package render

import (
	"strings"
	"testing"
)

func TestMirrorNeutralisesTheCommandItQuotes(t *testing.T) {
	cmd := "/clarify @maria Which? <!-- clarify:status --> <!-- clarify:msg round:CLR-42-001:1 --> @org/team"
	body := Mirror("coder-agent", cmd, []string{"maria", "org/team", "not a handle"}, "<!-- clarify:dispatch x.y -->", "dispatch:g")
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
