package fakegithub

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Delivery is one webhook delivery: the event name, GitHub's delivery GUID
// and the JSON payload exactly as it is signed and sent.
type Delivery struct {
	ID    string // X-GitHub-Delivery, unique per Server
	Event string // X-GitHub-Event, e.g. "issue_comment"
	Body  []byte

	// HookID and AppID fill X-GitHub-Hook-ID and
	// X-GitHub-Hook-Installation-Target-ID; zero leaves the header out.
	HookID int64
	AppID  int64
}

// newDeliveryLocked wraps a payload in a Delivery with the next GUID. GUIDs
// are derived from a counter so replays are reproducible.
func (s *Server) newDeliveryLocked(event string, payload any) Delivery {
	s.deliverySeq++
	sum := sha256.Sum256([]byte("fakegithub delivery " + strconv.Itoa(s.deliverySeq)))
	h := hex.EncodeToString(sum[:16])
	id := h[0:8] + "-" + h[8:12] + "-11f0-" + h[16:20] + "-" + h[20:32]
	return Delivery{ID: id, Event: event, Body: encodeJSON(payload), HookID: HookID, AppID: s.opts.AppID}
}

// Signatures returns the X-Hub-Signature-256 and X-Hub-Signature values of
// the body under secret.
func (d Delivery) Signatures(secret []byte) (sha256Sig, sha1Sig string) {
	m := hmac.New(sha256.New, secret)
	m.Write(d.Body)
	sha256Sig = "sha256=" + hex.EncodeToString(m.Sum(nil))
	m = hmac.New(sha1.New, secret)
	m.Write(d.Body)
	sha1Sig = "sha1=" + hex.EncodeToString(m.Sum(nil))
	return sha256Sig, sha1Sig
}

// Request builds the POST GitHub would make to url, with GitHub's headers;
// the body is signed when secret is not empty (GitHub sends no signature for
// a hook without a secret).
func (d Delivery) Request(url string, secret []byte) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(d.Body))
	if err != nil {
		return nil, fmt.Errorf("delivery %s: %w", d.ID, err)
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "GitHub-Hookshot/f4k3d00")
	h.Set("X-GitHub-Event", d.Event)
	h.Set("X-GitHub-Delivery", d.ID)
	if d.HookID != 0 {
		h.Set("X-GitHub-Hook-ID", strconv.FormatInt(d.HookID, 10))
	}
	if d.AppID != 0 {
		h.Set("X-GitHub-Hook-Installation-Target-Type", "integration")
		h.Set("X-GitHub-Hook-Installation-Target-ID", strconv.FormatInt(d.AppID, 10))
	}
	if len(secret) > 0 {
		sig256, sig1 := d.Signatures(secret)
		h.Set("X-Hub-Signature-256", sig256)
		h.Set("X-Hub-Signature", sig1)
	}
	return req, nil
}

// Send POSTs the delivery to url with c (nil means http.DefaultClient) and
// returns the status. A status outside 2xx is also an error that quotes the
// start of the answer, so a failed delivery never passes unnoticed.
func Send(ctx context.Context, c *http.Client, url string, secret []byte, d Delivery) (int, error) {
	if c == nil {
		c = http.DefaultClient
	}
	req, err := d.Request(url, secret)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("delivery %s (%s): %w", d.ID, d.Event, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("delivery %s (%s): %s: %s", d.ID, d.Event, resp.Status, strings.TrimSpace(string(answer)))
	}
	return resp.StatusCode, nil
}

// ReadRecorded reads a delivery recorded as the raw HTTP request GitHub
// sent: request line, headers, a blank line, the JSON body. It keeps the
// event, the delivery id and the hook headers; the body is everything after
// the headers (Content-Length is ignored, so a hand-edited body still reads
// whole), without trailing whitespace.
func ReadRecorded(r io.Reader) (Delivery, error) {
	br := bufio.NewReader(r)
	req, err := http.ReadRequest(br)
	if err != nil {
		return Delivery{}, fmt.Errorf("recorded delivery: expected an HTTP request (request line, headers, blank line, JSON body): %w", err)
	}
	body, err := io.ReadAll(br)
	if err != nil {
		return Delivery{}, fmt.Errorf("recorded delivery: reading body: %w", err)
	}
	body = bytes.TrimRight(body, " \t\r\n")
	d := Delivery{
		ID:    req.Header.Get("X-GitHub-Delivery"),
		Event: req.Header.Get("X-GitHub-Event"),
		Body:  body,
	}
	d.HookID, _ = strconv.ParseInt(req.Header.Get("X-GitHub-Hook-ID"), 10, 64)
	d.AppID, _ = strconv.ParseInt(req.Header.Get("X-GitHub-Hook-Installation-Target-ID"), 10, 64)
	switch {
	case d.Event == "":
		return Delivery{}, errors.New("recorded delivery: no X-GitHub-Event header")
	case d.ID == "":
		return Delivery{}, errors.New("recorded delivery: no X-GitHub-Delivery header")
	case !json.Valid(body):
		return Delivery{}, fmt.Errorf("recorded delivery %s: the body is not JSON", d.ID)
	}
	return d, nil
}
