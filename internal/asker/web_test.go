package asker

import "testing"

func TestTheWebHostIsTheAPIs(t *testing.T) {
	for api, want := range map[string]string{
		"https://api.github.com/":         "https://github.com",
		"https://api.github.com":          "https://github.com",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com",
		"https://api.octo.ghe.com/":       "https://octo.ghe.com",
		"http://127.0.0.1:8123/":          "http://127.0.0.1:8123",
		"":                                "https://github.com",
	} {
		if got := webOf(api); got != want {
			t.Errorf("webOf(%q) = %q, want %q", api, got, want)
		}
	}
}
