package ghtransport

import "testing"

// TestAHostAndItsAPIMapBothWays: github.com, a GitHub Enterprise Server and a *.ghe.com
// tenant each reach their own API, and each API names its host back.
func TestAHostAndItsAPIMapBothWays(t *testing.T) {
	for host, api := range map[string]string{
		"github.com":           "https://api.github.com/",
		"GitHub.COM":           "https://api.github.com/",
		"ghe.example.com":      "https://ghe.example.com/api/v3/",
		"octocorp.ghe.com":     "https://api.octocorp.ghe.com/",
		"git.internal.example": "https://git.internal.example/api/v3/",
	} {
		if got := APIOf(host); got != api {
			t.Errorf("APIOf(%q) = %q, want %q", host, got, api)
		}
		if got, err := HostOfAPI(api); err != nil || got != NormalHost(host) {
			t.Errorf("HostOfAPI(%q) = %q, %v; want %q", api, got, err, NormalHost(host))
		}
	}
	if got, err := HostOfAPI("http://127.0.0.1:8080/"); err != nil || got != "127.0.0.1:8080" {
		t.Errorf("HostOfAPI of a loopback URL = %q, %v; want its host and port", got, err)
	}
	if _, err := HostOfAPI("api.github.com"); err == nil {
		t.Error("HostOfAPI took a bare word for a URL")
	}
}
