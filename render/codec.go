package render

import (
	"bytes"
	"compress/flate"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/clarify-app/clarify/clarify"
)

// The ways DecodeLedger fails; every error it returns wraps exactly one of them.
var (
	// ErrNoLedger means the body holds no ledger block.
	ErrNoLedger = errors.New("render: no ledger block")
	// ErrTampered means the block's MAC does not match: edited by hand, or signed with another key.
	ErrTampered = errors.New("render: ledger block does not match its MAC")
	// ErrMalformed means the block cannot be read: bad syntax, base64, compression, JSON or size.
	ErrMalformed = errors.New("render: malformed ledger block")
	// ErrVersion means the block, or the ledger in it, has a version this code does not read.
	ErrVersion = errors.New("render: unsupported ledger version")
)

const (
	ledgerOpen  = "<!-- clarify:ledger "
	archiveOpen = "<!-- clarify:archive "
	ledgerClose = "-->"
	ledgerTag   = "v1"
	// maxLedgerJSON caps the ledger's JSON, checked on the way in and the way out, so a
	// small block cannot inflate into a huge allocation (a "zip bomb").
	maxLedgerJSON = 8 << 20
)

// deflaters reuses compressors: each holds about a megabyte of tables, which would
// otherwise be allocated and dropped on every event.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression) // fails only for a bad level
	return w
}}

// inflaters reuses decompressors for the same reason.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// b64 is standard base64 without padding: letters, digits, "+" and "/", none of which
// can form "-->" or "--!>", so the payload cannot end the comment it sits in.
var b64 = base64.RawStdEncoding

// errNoKey refuses to sign or trust a ledger without a key: an empty HMAC key would make
// every hand edit verify.
var errNoKey = errors.New("render: empty ledger key")

// EncodeLedger returns the hidden block "<!-- clarify:ledger v1 DATA.MAC -->" that carries l:
// DATA is base64 of the deflated JSON and MAC is base64 of its HMAC-SHA256 under key.
//
// A zero Version is written as clarify.LedgerVersion (a fresh ledger); any other version
// than the current one is refused, since this code could not read it back.
func EncodeLedger(l clarify.Ledger, key []byte) (string, error) {
	return encodeBlock(ledgerOpen, l, key)
}

// EncodeArchive returns the hidden block "<!-- clarify:archive v1 DATA.MAC -->" of an
// archive comment: final clarifications moved out of a ledger grown too large for one
// comment. It is signed like a ledger, but under its own tag, so neither passes for the other.
func EncodeArchive(l clarify.Ledger, key []byte) (string, error) {
	return encodeBlock(archiveOpen, l, key)
}

// DecodeArchive reads the archive block of a comment body; it fails as DecodeLedger does.
func DecodeArchive(body string, key []byte) (clarify.Ledger, error) {
	return decodeBlock(archiveOpen, body, key)
}

func encodeBlock(open string, l clarify.Ledger, key []byte) (string, error) {
	if len(key) == 0 {
		return "", errNoKey
	}
	if l.Version == 0 {
		l.Version = clarify.LedgerVersion
	}
	if l.Version != clarify.LedgerVersion {
		return "", fmt.Errorf("%w: cannot write version %d", ErrVersion, l.Version)
	}
	js, err := json.Marshal(l)
	if err != nil {
		return "", fmt.Errorf("render: encode ledger: %w", err)
	}
	if len(js) > maxLedgerJSON {
		return "", fmt.Errorf("render: ledger is %d bytes of JSON, over the %d a reader accepts", len(js), maxLedgerJSON)
	}
	return sealJSON(open, js, key)
}

// DecodeLedger reads the ledger block of a comment body, the last one if there are
// several (the status comment puts its own at the very end). It fails closed: a last
// block that is damaged is an error, never a reason to fall back on an earlier one.
func DecodeLedger(body string, key []byte) (clarify.Ledger, error) {
	return decodeBlock(ledgerOpen, body, key)
}

func decodeBlock(open, body string, key []byte) (clarify.Ledger, error) {
	data, sum, canonical, err := splitBlock(open, body)
	if err != nil {
		return clarify.Ledger{}, err
	}
	if len(key) == 0 {
		return clarify.Ledger{}, errNoKey
	}
	// Base64 leaves a few bits of the last character unused; an edit to them decodes to
	// the same bytes. Re-encoding catches it, so that any changed character is an edit.
	if !macEqual(sum, mac(open, key, data)) || !canonical {
		return clarify.Ledger{}, ErrTampered
	}
	return inflateLedger(data)
}

// splitBlock takes the last block that opens with open out of body: its data and MAC,
// decoded, and whether both were written as this code writes them (canonical base64).
func splitBlock(open, body string) (data, sum []byte, canonical bool, err error) {
	at := strings.LastIndex(body, open)
	if at < 0 {
		return nil, nil, false, ErrNoLedger
	}
	rest := body[at+len(open):]
	end := strings.Index(rest, ledgerClose)
	if end < 0 {
		return nil, nil, false, fmt.Errorf("%w: block is not closed", ErrMalformed)
	}
	fields := strings.Fields(rest[:end])
	switch {
	case len(fields) == 0:
		return nil, nil, false, fmt.Errorf("%w: empty block", ErrMalformed)
	case fields[0] != ledgerTag && isVersionTag(fields[0]):
		return nil, nil, false, fmt.Errorf("%w: block says %s, this code reads %s", ErrVersion, fields[0], ledgerTag)
	case fields[0] != ledgerTag:
		return nil, nil, false, fmt.Errorf("%w: no version tag", ErrMalformed)
	case len(fields) != 2:
		return nil, nil, false, fmt.Errorf("%w: want one payload after the version, got %d fields", ErrMalformed, len(fields)-1)
	}
	enc, encMAC, ok := strings.Cut(fields[1], ".")
	if !ok {
		return nil, nil, false, fmt.Errorf("%w: payload has no MAC", ErrMalformed)
	}
	if data, err = b64.DecodeString(enc); err != nil {
		return nil, nil, false, fmt.Errorf("%w: data: %v", ErrMalformed, err)
	}
	if sum, err = b64.DecodeString(encMAC); err != nil {
		return nil, nil, false, fmt.Errorf("%w: MAC: %v", ErrMalformed, err)
	}
	return data, sum, b64.EncodeToString(data) == enc && b64.EncodeToString(sum) == encMAC, nil
}

// inflateLedger reads a block's verified data: deflated JSON of a ledger of this version,
// no larger than maxLedgerJSON however small the data.
func inflateLedger(data []byte) (clarify.Ledger, error) {
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return clarify.Ledger{}, fmt.Errorf("%w: inflate: %v", ErrMalformed, err)
	}
	js, err := io.ReadAll(io.LimitReader(r, maxLedgerJSON+1))
	if err != nil {
		return clarify.Ledger{}, fmt.Errorf("%w: inflate: %v", ErrMalformed, err)
	}
	if len(js) > maxLedgerJSON {
		return clarify.Ledger{}, fmt.Errorf("%w: inflates past %d bytes", ErrMalformed, maxLedgerJSON)
	}
	var l clarify.Ledger
	if err := json.Unmarshal(js, &l); err != nil {
		return clarify.Ledger{}, fmt.Errorf("%w: json: %v", ErrMalformed, err)
	}
	if l.Version != clarify.LedgerVersion {
		return clarify.Ledger{}, fmt.Errorf("%w: ledger says version %d, this code reads %d", ErrVersion, l.Version, clarify.LedgerVersion)
	}
	return l, nil
}

// mac signs the compressed ledger. The version tag is part of the signed bytes, so a
// block cannot be relabelled as another version without the key.
func mac(open string, key, data []byte) []byte {
	return sign(key, []byte(open+ledgerTag+"\x00"), data)
}

// sign is the one MAC of render: HMAC-SHA256 of the parts, in order, under key. Every
// signed block and every key drawn from another goes through it.
func sign(key []byte, parts ...[]byte) []byte {
	h := hmac.New(sha256.New, key)
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// macEqual compares two MACs in constant time, so that timing tells nothing of the right one.
func macEqual(a, b []byte) bool { return hmac.Equal(a, b) }

func isVersionTag(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// sealJSON deflates js and signs it under key, as "OPEN v1 DATA.MAC -->".
func sealJSON(open string, js, key []byte) (string, error) {
	if len(key) == 0 {
		return "", errNoKey
	}
	var z bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&z)
	if _, err := w.Write(js); err != nil {
		return "", fmt.Errorf("render: deflate: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("render: deflate: %w", err)
	}
	data := z.Bytes()
	return open + ledgerTag + " " + b64.EncodeToString(data) + "." + b64.EncodeToString(mac(open, key, data)) + " " + ledgerClose, nil
}

// openJSON verifies and inflates the last block that open starts in body.
func openJSON(open, body string, key []byte) ([]byte, error) {
	at := strings.LastIndex(body, open)
	if at < 0 {
		return nil, ErrNoLedger
	}
	rest := body[at+len(open):]
	end := strings.Index(rest, ledgerClose)
	fields := strings.Fields(rest[:max(end, 0)])
	if end < 0 || len(fields) != 2 || fields[0] != ledgerTag {
		return nil, fmt.Errorf("%w: not a %sv1 block", ErrMalformed, open)
	}
	enc, encMAC, _ := strings.Cut(fields[1], ".")
	data, err1 := b64.DecodeString(enc)
	sum, err2 := b64.DecodeString(encMAC)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%w: base64", ErrMalformed)
	}
	if len(key) == 0 {
		return nil, errNoKey
	}
	if !hmac.Equal(sum, mac(open, key, data)) || b64.EncodeToString(data) != enc {
		return nil, ErrTampered
	}
	r := flate.NewReader(bytes.NewReader(data))
	defer r.Close()
	js, err := io.ReadAll(io.LimitReader(r, maxLedgerJSON+1))
	if err != nil || len(js) > maxLedgerJSON {
		return nil, fmt.Errorf("%w: inflate", ErrMalformed)
	}
	return js, nil
}
