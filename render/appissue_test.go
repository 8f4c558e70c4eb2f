package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

func TestAnAppIssueMarkHoldsForItsIssueAndKindOnly(t *testing.T) {
	ring := Keyring{Current: []byte("current key"), Previous: [][]byte{[]byte("old key")}}
	mark := ring.Issue("octo", "widgets", 43).AppIssueMark("decisions")
	for name, tc := range map[string]struct {
		keys       IssueKeys
		kind, mark string
		want       bool
	}{
		"itsIssue":        {ring.Issue("octo", "widgets", 43), "decisions", mark, true},
		"anotherIssue":    {ring.Issue("octo", "widgets", 80), "decisions", mark, false},
		"anotherRepo":     {ring.Issue("octo", "gadgets", 43), "decisions", mark, false},
		"anotherKind":     {ring.Issue("octo", "widgets", 43), "dashboard", mark, false},
		"notHex":          {ring.Issue("octo", "widgets", 43), "decisions", "zz", false},
		"afterARotation":  {Keyring{Current: []byte("new key"), Previous: [][]byte{[]byte("current key")}}.Issue("octo", "widgets", 43), "decisions", mark, true},
		"shortened":       {ring.Issue("octo", "widgets", 43), "decisions", mark[:len(mark)-2], false},
		"anotherAppsRing": {Keyring{Current: []byte("other")}.Issue("octo", "widgets", 43), "decisions", mark, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.keys.IsAppIssueMark(tc.kind, tc.mark); got != tc.want {
				t.Errorf("IsAppIssueMark = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTheDecisionsIndexVerifiesInItsIssueOnly(t *testing.T) {
	ring := Keyring{Current: []byte("current key")}
	ix := DecisionsIndex{Parts: []int64{11, 12}, Sweep: 13}
	body, err := DecisionsIssueBody(ix, ring.Issue("octo", "widgets", 43).Signing())
	if err != nil {
		t.Fatal(err)
	}
	got, err := ring.Issue("octo", "widgets", 43).DecodeDecisionsIndex(body)
	if err != nil || len(got.Parts) != 2 || got.Parts[1] != 12 || got.Sweep != 13 {
		t.Errorf("index read back as %+v (%v)", got, err)
	}
	if _, err := ring.Issue("octo", "widgets", 80).DecodeDecisionsIndex(body); !errors.Is(err, ErrTampered) {
		t.Errorf("the index copied into #80 reads with %v, want ErrTampered", err)
	}
	if _, err := ring.Issue("octo", "widgets", 43).DecodeDecisionsIndex(DecisionsIssueText()); err == nil {
		t.Error("a body without an index read as one")
	}
}

func TestADecisionQuotedElsewhereLinksNowhere(t *testing.T) {
	d := clarify.Decision{ID: "CLR-7-001", Issue: 7, Decision: "As agreed in [the design](../issues/9#issuecomment-1), see https://evil.example and www.example.com ![x](https://img.example/a.png)", By: "maria"}
	got := offered(d, "")
	got = got[strings.Index(got, "\n> "):] // the quote, after the app's own link to where it was made
	for _, bad := range []string{"](", "https://", "www.example"} {
		if strings.Contains(strings.ReplaceAll(got, `\]`, ""), bad) {
			t.Errorf("the offer keeps %q live:\n%s", bad, got)
		}
	}
	if !strings.Contains(got, `\[the design\]`) || !strings.Contains(got, "https:"+zwsp+"//evil.example") {
		t.Errorf("the offer does not read as written:\n%s", got)
	}
	body, err := DashboardBody(Dashboard{}, []clarify.Decision{d}, []byte("key"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, "https://evil") || strings.Contains(strings.ReplaceAll(body, `\]`, ""), "](../issues/9") {
		t.Errorf("the dashboard keeps the decision's links live:\n%s", body)
	}
}
