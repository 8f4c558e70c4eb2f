package render

import (
	"errors"
	"testing"
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
