package render

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

var testKey = []byte("test ledger key, never used in production")

func mustEncode(t testing.TB, l clarify.Ledger, key []byte) string {
	t.Helper()
	block, err := EncodeLedger(l, key)
	if err != nil {
		t.Fatalf("EncodeLedger: %v", err)
	}
	return block
}

func TestStatusCarriesTheLedgerItCameFrom(t *testing.T) {
	tests := map[string]clarify.Ledger{
		"emptyLedger":              {Version: clarify.LedgerVersion, Issue: 7},
		"everyStatusAndAssumption": richLedger(),
		"hostileTextInEveryField":  hostileLedger(),
	}
	for name, l := range tests {
		t.Run(name, func(t *testing.T) {
			body := Status(l, mustEncode(t, l, testKey))
			if n := strings.Count(body, ledgerOpen); n != 1 {
				t.Errorf("%d ledger blocks in the status comment, want 1", n)
			}
			if n := strings.Count(body, StatusMarker); n != 1 {
				t.Errorf("%d status markers, want 1", n)
			}
			assertSafe(t, body, 3)
			got, err := DecodeLedger(body, testKey)
			if err != nil {
				t.Fatalf("DecodeLedger: %v", err)
			}
			if !reflect.DeepEqual(got, l) {
				t.Errorf("ledger changed on the way through the status comment\n got: %+v\nwant: %+v", got, l)
			}
		})
	}
}

func TestEncodeLedgerStampsAFreshLedgerAndRefusesOtherVersions(t *testing.T) {
	block := mustEncode(t, clarify.Ledger{Issue: 1}, testKey)
	l, err := DecodeLedger(block, testKey)
	if err != nil || l.Version != clarify.LedgerVersion {
		t.Errorf("fresh ledger: version %d, err %v; want %d, nil", l.Version, err, clarify.LedgerVersion)
	}
	if _, err := EncodeLedger(clarify.Ledger{Version: 2}, testKey); !errors.Is(err, ErrVersion) {
		t.Errorf("version 2: err %v, want ErrVersion", err)
	}
	if _, err := EncodeLedger(richLedger(), nil); err == nil {
		t.Error("empty key: no error; a ledger signed with no key would trust any edit")
	}
}

func TestEncodeLedgerIsDeterministic(t *testing.T) {
	if a, b := mustEncode(t, richLedger(), testKey), mustEncode(t, richLedger(), testKey); a != b {
		t.Error("the same ledger encoded twice gave two blocks; a re-save would always look like a change")
	}
}

func TestEveryChangedCharacterOfThePayloadIsTampering(t *testing.T) {
	block := mustEncode(t, richLedger(), testKey)
	start := len(ledgerOpen + ledgerTag + " ")
	end := len(block) - len(" "+ledgerClose)
	for i := start; i < end; i++ {
		if block[i] == '.' {
			continue
		}
		sub := byte('A')
		if block[i] == 'A' {
			sub = 'B'
		}
		edited := block[:i] + string(sub) + block[i+1:]
		if _, err := DecodeLedger(edited, testKey); !errors.Is(err, ErrTampered) {
			t.Fatalf("payload character %d changed: err %v, want ErrTampered", i-start, err)
		}
	}
}

func TestDecodeLedgerFailsClosed(t *testing.T) {
	good := mustEncode(t, richLedger(), testKey)
	payload := strings.TrimSuffix(strings.TrimPrefix(good, ledgerOpen+ledgerTag+" "), " "+ledgerClose)
	tests := map[string]struct {
		body string
		key  []byte
		want error
	}{
		"wrongKeyIsTampering":          {good, []byte("another key"), ErrTampered},
		"noBlockIsNoLedger":            {"just a comment <!-- clarify:status -->", testKey, ErrNoLedger},
		"emptyBodyIsNoLedger":          {"", testKey, ErrNoLedger},
		"unclosedBlockIsMalformed":     {strings.TrimSuffix(good, ledgerClose), testKey, ErrMalformed},
		"missingMACIsMalformed":        {ledgerOpen + "v1 " + strings.Split(payload, ".")[0] + " -->", testKey, ErrMalformed},
		"notBase64IsMalformed":         {ledgerOpen + "v1 !!!!.AAAA -->", testKey, ErrMalformed},
		"extraFieldIsMalformed":        {ledgerOpen + "v1 " + payload + " extra -->", testKey, ErrMalformed},
		"noVersionTagIsMalformed":      {ledgerOpen + payload + " -->", testKey, ErrMalformed},
		"futureBlockVersionIsVersion":  {ledgerOpen + "v2 " + payload + " -->", testKey, ErrVersion},
		"futureLedgerVersionIsVersion": {signed(t, []byte(`{"v":2,"issue":42}`)), testKey, ErrVersion},
		"signedGarbageIsMalformed":     {signed(t, []byte(`{"v":1,"issue":"forty-two"}`)), testKey, ErrMalformed},
		"zipBombIsMalformed":           {signed(t, make([]byte, maxLedgerJSON+1)), testKey, ErrMalformed},
		"lastBlockDamagedDoesNotFallBackToAnEarlierOne": {
			good + "\n" + ledgerOpen + "v1 AAAA.AAAA -->", testKey, ErrTampered,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeLedger(tc.body, tc.key)
			if !errors.Is(err, tc.want) {
				t.Errorf("err %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := DecodeLedger(good, nil); err == nil {
		t.Error("empty key: no error")
	}
}

// signed builds a correctly signed block around arbitrary JSON bytes, as only a holder
// of the key could.
func signed(t *testing.T, js []byte) string {
	t.Helper()
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(js)
	w.Close()
	return ledgerOpen + ledgerTag + " " + b64.EncodeToString(z.Bytes()) + "." +
		b64.EncodeToString(mac(ledgerOpen, testKey, z.Bytes())) + " " + ledgerClose
}

func TestDecodeLedgerReadsTheLastOfSeveralBlocks(t *testing.T) {
	older, newer := richLedger(), richLedger()
	newer.Rev++
	body := mustEncode(t, older, testKey) + "\n" + mustEncode(t, newer, testKey)
	got, err := DecodeLedger(body, testKey)
	if err != nil || got.Rev != newer.Rev {
		t.Errorf("rev %d, err %v; want rev %d", got.Rev, err, newer.Rev)
	}
}

// A user who pastes a real, correctly signed block (say, copied from an older status
// comment) into a question still cannot make it the ledger: it is escaped on the way in.
func TestPastedLedgerBlockInUserTextIsNotRead(t *testing.T) {
	forged := richLedger()
	forged.Clarifications = nil
	forged.Rev = 999
	pasted := mustEncode(t, forged, testKey)

	real := richLedger()
	real.Clarifications[0].Topic = pasted
	real.Clarifications[0].Thread[0].Text = "see " + pasted + " trailing"
	real.Assumptions[0].Decision = pasted
	body := Status(real, mustEncode(t, real, testKey))

	if n := strings.Count(body, ledgerOpen); n != 1 {
		t.Fatalf("%d ledger blocks in the status comment, want 1", n)
	}
	got, err := DecodeLedger(body, testKey)
	if err != nil {
		t.Fatalf("DecodeLedger: %v", err)
	}
	if got.Rev != real.Rev || len(got.Clarifications) != len(real.Clarifications) {
		t.Errorf("decoded rev %d with %d clarifications, want the real ledger (rev %d)", got.Rev, len(got.Clarifications), real.Rev)
	}
}

func TestLedgerBlockUsesOnlyCommentSafeCharacters(t *testing.T) {
	block := mustEncode(t, hostileLedger(), testKey)
	inner := strings.TrimSuffix(strings.TrimPrefix(block, ledgerOpen), ledgerClose)
	for _, r := range inner {
		if !(r == ' ' || r == '.' || r == '+' || r == '/' || r < 128 && (isASCIILetter(byte(r)) || isDigit(byte(r)))) {
			t.Fatalf("block holds %q; only base64, '.' and spaces may appear", r)
		}
	}
}

func FuzzStatusRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"", "plain", hostile, "-->", "<!--", "--!>", "<!-- clarify:ledger v1 AAAA.BBBB -->",
		StatusMarker, "a | b", "`x`", "@alice", "#1", "line\nline\r\nline\u2028", "\xff\xfe",
		strings.Repeat("é\u0301😀", 500),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// JSON cannot carry invalid UTF-8 unchanged; the domain never holds any.
		s = strings.ToValidUTF8(s, "\uFFFD")
		l := richLedger()
		for i := range l.Clarifications {
			c := &l.Clarifications[i]
			c.Topic, c.Type, c.Resolution = s, s, s
			c.Asker.Login, c.Asker.Role = s, s
			c.Target.Name = s
			c.Options = []clarify.Option{{Key: s, Text: s}}
			c.Fallback = s
			c.Evidence = []string{s}
			for j := range c.Thread {
				c.Thread[j].Text, c.Thread[j].Author = s, s
			}
		}
		l.Assumptions[0].Decision, l.Assumptions[0].Author, l.Assumptions[1].Source = s, s, s

		body := Status(l, mustEncode(t, l, testKey))
		if n := strings.Count(body, ledgerOpen); n != 1 {
			t.Fatalf("%d ledger blocks, want 1", n)
		}
		assertSafe(t, body, 3)
		got, err := DecodeLedger(body, testKey)
		if err != nil {
			t.Fatalf("DecodeLedger: %v", err)
		}
		if !reflect.DeepEqual(got, l) {
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(l)
			t.Fatalf("round trip changed the ledger\n got: %s\nwant: %s", a, b)
		}
	})
}
