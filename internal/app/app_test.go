package app_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/replay"
)

const repo = "octo/widgets"

// newHarness starts the app against the in-memory GitHub, with issue #42 and a bot that asks.
func newHarness(t *testing.T) *replay.Harness {
	t.Helper()
	h := newHarnessWith(t, nil)
	h.Fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	return h
}

// newHarnessWith starts the app, its settings changed by tune (nil: none), against the
// in-memory GitHub with the repository, maria who may answer, and a bot that asks.
func newHarnessWith(t *testing.T, tune func(*app.Config)) *replay.Harness {
	t.Helper()
	h, err := replay.NewHarnessWith(io.Discard, tune)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	return h
}

func TestHealthz(t *testing.T) {
	h := newHarness(t)
	resp, err := h.AppServer.Client().Get(h.AppServer.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d", resp.StatusCode)
	}
}

func TestBadDeliveriesChangeNothing(t *testing.T) {
	h := newHarness(t)
	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	before := h.Fake.Fingerprint()

	post := func(body []byte, header func(http.Header)) int {
		req, err := d.Request(h.HookURL(), h.Secret)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req, _ = http.NewRequest(http.MethodPost, h.HookURL(), bytes.NewReader(body))
			for k, v := range must(d.Request(h.HookURL(), h.Secret)).Header {
				req.Header[k] = v
			}
		}
		header(req.Header)
		resp, err := h.AppServer.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h.App.Scheduler.Wait()
		return resp.StatusCode
	}
	sign := func(body []byte) string { return signature(h.Secret, body) }
	malformed := []byte(`{"action":"created","issue":`)

	cases := map[string]struct {
		body   []byte
		header func(http.Header)
		want   int
	}{
		"missingSignatureIsUnauthorized": {nil, func(hd http.Header) { hd.Del("X-Hub-Signature-256"); hd.Del("X-Hub-Signature") }, http.StatusUnauthorized},
		"wrongSignatureIsUnauthorized":   {nil, func(hd http.Header) { hd.Set("X-Hub-Signature-256", "sha256="+strings.Repeat("0", 64)) }, http.StatusUnauthorized},
		"signatureByAnotherSecretIsUnauthorized": {nil, func(hd http.Header) {
			hd.Set("X-Hub-Signature-256", signature([]byte("not-the-secret"), d.Body))
		}, http.StatusUnauthorized},
		"malformedJSONIsBadRequest":    {malformed, func(hd http.Header) { hd.Set("X-Hub-Signature-256", sign(malformed)) }, http.StatusBadRequest},
		"missingEventTypeIsBadRequest": {nil, func(hd http.Header) { hd.Del("X-GitHub-Event") }, http.StatusBadRequest},
		"unhandledEventIsAccepted":     {nil, func(hd http.Header) { hd.Set("X-GitHub-Event", "star") }, http.StatusAccepted},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := post(tc.body, tc.header); got != tc.want {
				t.Errorf("status = %d, want %d", got, tc.want)
			}
			if after := h.Fake.Fingerprint(); after != before {
				t.Errorf("the issue changed:\n%s", after)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func signature(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}
