package asker_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// failConfig answers every read of the repository's config with GitHub's 502.
type failConfig struct{ next http.RoundTripper }

func (f failConfig) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/contents/.github/clarify.yml") {
		return &http.Response{StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway", Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(`{"message":"Server Error"}`)), Request: r}, nil
	}
	return f.next.RoundTrip(r)
}

// TestWhomToBelieveUnknownIsAnErrorNotAGuess: when the repository's config cannot be read
// (GitHub fails) or does not parse, the client does not fall back on an account: it fails,
// naming the file.
func TestWhomToBelieveUnknownIsAnErrorNotAGuess(t *testing.T) {
	w := newWorld(t)
	w.ask()
	var out, errs bytes.Buffer
	d := w.door(&out, &errs, nil)
	d.Transport = failConfig{next: w.wire}
	if code := d.Status([]string{"octo/widgets#42"}); code != 1 || out.Len() != 0 || !strings.Contains(errs.String(), ".github/clarify.yml") {
		t.Errorf("bot status when GitHub fails the config: exit %d, stdout %q, stderr %q; want 1 naming the file", code, out.String(), errs.String())
	}

	w.h.Fake.SetFile(repo, ".github/clarify.yml", "verify_keys: [\"ed25519:not a key\"]\n")
	out.Reset()
	errs.Reset()
	if code := w.door(&out, &errs, nil).Status([]string{"octo/widgets#42"}); code != 1 || out.Len() != 0 ||
		!strings.Contains(errs.String(), "bot config check") || !strings.Contains(errs.String(), "bot key public") {
		t.Errorf("bot status with a broken verify_keys: exit %d, stdout %q, stderr %q; want 1, the mistake and how to check", code, out.String(), errs.String())
	}
}
