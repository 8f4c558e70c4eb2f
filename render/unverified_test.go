package render

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/clarify"
)

func TestDecodeUnverified(t *testing.T) {
	l := richLedger()
	signed := Status(l, mustEncode(t, l, testKey))
	at := strings.LastIndex(signed, ledgerOpen)
	forged := signed[:at] + strings.Replace(signed[at:], ".", ".A", 1) // another MAC
	archive, err := EncodeArchive(l, testKey)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		body    string
		archive bool
		want    error
	}{
		"signedLedgerReadsAsItWasWritten": {body: signed},
		"wrongMACStillReads":              {body: forged},
		"archiveReadsAsArchive":           {body: archive, archive: true},
		"archiveIsNoLedger":               {body: archive, want: ErrNoLedger},
		"ledgerIsNoArchive":               {body: signed, archive: true, want: ErrNoLedger},
		"noBlock":                         {body: "just a comment", want: ErrNoLedger},
		"unclosedBlock":                   {body: "<!-- clarify:ledger v1 AAAA.BBBB", want: ErrMalformed},
		"badBase64":                       {body: "<!-- clarify:ledger v1 !!!!.BBBB -->", want: ErrMalformed},
		"notDeflate":                      {body: "<!-- clarify:ledger v1 AAAA.BBBB -->", want: ErrMalformed},
		"newerVersion":                    {body: "<!-- clarify:ledger v2 AAAA.BBBB -->", want: ErrVersion},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			decode := DecodeLedgerUnverified
			if tc.archive {
				decode = DecodeArchiveUnverified
			}
			got, err := decode(tc.body)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, l) {
				t.Errorf("ledger changed\n got: %+v\nwant: %+v", got, l)
			}
		})
	}
}

func TestDecodeUnverifiedLeavesTheVerifiedReadAlone(t *testing.T) {
	l := clarify.Ledger{Version: clarify.LedgerVersion, Issue: 3}
	body := strings.Replace(mustEncode(t, l, testKey), ".", ".A", 1)
	if _, err := DecodeLedgerUnverified(body); err != nil {
		t.Fatalf("unverified: %v", err)
	}
	if _, err := DecodeLedger(body, testKey); !errors.Is(err, ErrTampered) {
		t.Errorf("verified read of the same body: err %v, want ErrTampered", err)
	}
}
