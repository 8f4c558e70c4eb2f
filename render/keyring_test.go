package render

import (
	"errors"
	"reflect"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

// Blocks written by the dispatch handler before the codec moved into render (taken from
// that code's output): mirrors already posted in issues must keep standing for their senders.
const (
	// Signed under "ledger key" for octo/widgets#42.
	postedMirror = "<!-- clarify:dispatch eyJ2IjoxLCJkZWxpdmVyeSI6ImcxIiwibG9naW4iOiJjb2Rlci1hZ2VudCIsInR5cGUiOiJCb3QiLCJjb21tYW5kIjoiL2NsYXJpZnkgQG1hcmlhIFBlciBrZXk_In0.VBgPbh3AZR6mRPGqiPQul34J0J43XT-2TS-qcqqbjuo -->"
	// Signed under "old key" for octo/widgets#42, its command full of markup.
	postedMirrorOldKey = "<!-- clarify:dispatch eyJ2IjoxLCJkZWxpdmVyeSI6ImcyIiwibG9naW4iOiJtYXJpYSIsInR5cGUiOiJVc2VyIiwiY29tbWFuZCI6Ii9yZXNwb25kIFx1MDAzY2JcdTAwM2VcInF1b3RlZFwiXHUwMDNjL2JcdTAwM2UgLS1cdTAwM2UifQ.tlqySNMRnhAnCr342QrSk9o8jWhF6dIA4ekSkVxyLvs -->"
)

func TestPostedMirrorsStillVerifyAndEncodeTheSame(t *testing.T) {
	ring := Keyring{Current: []byte("ledger key"), Previous: [][]byte{[]byte("old key")}}
	keys := ring.Issue("octo", "widgets", 42)
	want := DispatchCopy{V: 1, Delivery: "g1", Login: "coder-agent", Type: "Bot", Command: "/clarify @maria Per key?"}
	if got, ok := keys.DecodeDispatch("@coder-agent via …\n\n" + postedMirror + "\n"); !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("a posted mirror reads as %+v (%v), want %+v", got, ok, want)
	}
	if block, err := keys.EncodeDispatch(want); err != nil || block != postedMirror {
		t.Errorf("the codec writes\n%s\nwhere the app wrote\n%s (%v)", block, postedMirror, err)
	}
	if got, ok := keys.DecodeDispatch(postedMirrorOldKey); !ok || got.Command != `/respond <b>"quoted"</b> -->` {
		t.Errorf("a mirror signed before a rotation reads as %+v (%v)", got, ok)
	}
	refused := map[string]IssueKeys{
		"anotherIssue":        ring.Issue("octo", "widgets", 43),
		"anotherRepository":   ring.Issue("octo", "gadgets", 42),
		"keyRotatedOutOfRing": Keyring{Current: []byte("new key")}.Issue("octo", "widgets", 42),
		"noKeyAtAll":          Keyring{}.Issue("octo", "widgets", 42),
	}
	for name, k := range refused {
		if got, ok := k.DecodeDispatch(postedMirror); ok {
			t.Errorf("%s: the mirror must not verify, read %+v", name, got)
		}
	}
	if _, err := (Keyring{}).Issue("octo", "widgets", 42).EncodeDispatch(want); !errors.Is(err, errNoKey) {
		t.Errorf("signing without a key: %v, want errNoKey", err)
	}
}

func TestDispatchCopyMustBeTheAppsVersionAndNameItsSender(t *testing.T) {
	keys := Keyring{Current: []byte("k")}.Issue("o", "r", 1)
	for name, m := range map[string]DispatchCopy{
		"otherVersion": {V: 2, Delivery: "g", Login: "maria", Command: "/clarify"},
		"noSender":     {V: 1, Delivery: "g", Command: "/clarify"},
	} {
		block, err := keys.EncodeDispatch(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := keys.DecodeDispatch(block); ok {
			t.Errorf("%s: a signed copy %+v must still not stand for a command", name, m)
		}
	}
}

func TestIssueKeysVerifyCurrentPreviousAndLegacyPlainKeys(t *testing.T) {
	ring := Keyring{Current: []byte("new"), Previous: [][]byte{[]byte("old")}}
	l := clarify.Ledger{Version: clarify.LedgerVersion, Issue: 7, Seq: 3}
	tests := map[string]struct {
		key  []byte
		l    clarify.Ledger
		want bool
	}{
		"currentIssueKey":               {IssueKey([]byte("new"), "Octo", "Widgets", 7), l, true},
		"previousIssueKey":              {IssueKey([]byte("old"), "octo", "widgets", 7), l, true},
		"plainKeyNamingTheIssue":        {[]byte("old"), l, true},
		"plainKeyNamingAnotherIssue":    {[]byte("new"), clarify.Ledger{Version: clarify.LedgerVersion, Issue: 8}, false},
		"anotherIssuesKey":              {IssueKey([]byte("new"), "octo", "widgets", 8), l, false},
		"aKeyOutsideTheRing":            {IssueKey([]byte("stranger"), "octo", "widgets", 7), l, false},
		"previousKeyOfAnotherRepoIssue": {IssueKey([]byte("old"), "octo", "gadgets", 7), l, false},
	}
	keys := ring.Issue("octo", "widgets", 7)
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			block, err := EncodeLedger(tc.l, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := keys.DecodeLedger(Status(tc.l, block))
			if (err == nil) != tc.want || (tc.want && got.Seq != tc.l.Seq) {
				t.Fatalf("DecodeLedger = %+v, %v; want verified %v", got, err, tc.want)
			}
			if !tc.want && !errors.Is(err, ErrTampered) {
				t.Errorf("refusal %v, want the current key's ErrTampered", err)
			}
		})
	}
	block, err := keys.EncodeLedger(l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeLedger(block, IssueKey([]byte("new"), "octo", "widgets", 7)); err != nil {
		t.Errorf("the ring signs with the current key drawn for the issue: %v", err)
	}
}
