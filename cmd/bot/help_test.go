package main

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
)

// TestServeAndSweepHelpNameEverySetting: an operator with only the image reads the
// settings, their environment variables and defaults from -h.
func TestServeAndSweepHelpNameEverySetting(t *testing.T) {
	for _, sub := range []string{"serve", "sweep"} {
		t.Run(sub, func(t *testing.T) {
			var stdout bytes.Buffer
			if code := run([]string{sub, "-h"}, &stdout, io.Discard); code != 0 {
				t.Fatalf("bot %s -h exited %d", sub, code)
			}
			help := stdout.String()
			// The page that says what each setting is for, where the checkout has it.
			if !strings.Contains(help, "docs/app.md say what each is for") {
				t.Errorf("bot %s -h does not point at docs/app.md for what each setting is for:\n%s", sub, help)
			}
			if _, err := os.Stat("../../docs/app.md"); err != nil {
				t.Error(err)
			}
			for _, s := range app.Settings {
				line := lineWith(help, "  "+s.Key+" ")
				if line == "" {
					t.Errorf("bot %s -h does not name %s", sub, s.Key)
					continue
				}
				if s.Env != "" && !strings.Contains(line, s.Env) {
					t.Errorf("bot %s -h: %q does not name %s", sub, line, s.Env)
				}
				if def := strings.ReplaceAll(s.Default, "`", ""); !strings.HasSuffix(line, def) {
					t.Errorf("bot %s -h: %q does not end with the default %q", sub, line, def)
				}
			}
		})
	}
}

func lineWith(text, sub string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, sub) {
			return strings.TrimRight(l, " ")
		}
	}
	return ""
}

func TestVersionNamesTheBuild(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"--version"}, &out, io.Discard); code != 0 {
		t.Fatalf("bot --version exited %d", code)
	}
	if got := out.String(); !strings.HasPrefix(got, "bot ") || !strings.Contains(got, runtime.Version()) {
		t.Errorf("bot --version said %q", got)
	}
	// What the Dockerfile's -ldflags -X set wins over what Go recorded.
	defer func(v, r string) { version, revision = v, r }(version, revision)
	version, revision = "v1.4.0", "0123abcd"
	out.Reset()
	run([]string{"--version"}, &out, io.Discard)
	if got, want := out.String(), "bot v1.4.0, revision 0123abcd, "+runtime.Version()+"\n"; got != want {
		t.Errorf("bot --version said %q, want %q", got, want)
	}
}
