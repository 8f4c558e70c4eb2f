package main

import (
	"os/exec"
	"strings"
	"testing"
)

// serverOnly are the modules of the app's server side (Redis, Prometheus, the App's
// webhook and installation clients, the JWT they sign): gh clarify, a client run on a
// person's machine, links none of them.
var serverOnly = []string{
	"github.com/redis/",
	"github.com/prometheus/",
	"github.com/palantir/go-githubapp",
	"github.com/bradleyfalzon/ghinstallation",
	"github.com/golang-jwt/",
}

// TestGhClarifyLinksNoServerPackage lists what gh clarify links (go list -deps) and fails
// on any package of the server side's modules.
func TestGhClarifyLinksNoServerPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, p := range deps {
		for _, mod := range serverOnly {
			if strings.HasPrefix(p, mod) {
				t.Errorf("gh clarify links %s, a package of the server side", p)
			}
		}
	}
	t.Logf("gh clarify links %d packages beside the standard library", len(deps))
}
