package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarios plays every scenario under testdata/scenarios through the real app and
// checks its `expect` lines, then replays all of its deliveries and asserts nothing changed.
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/scenarios/*.txt")
	if len(files) < 10 {
		t.Fatalf("found %d scenarios, want the demo and one per protocol path", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var logs io.Writer = io.Discard
			h, err := NewHarness(logs)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			touched := map[string]bool{}
			if err := playScenario(context.Background(), h, name, bytes.NewReader(b), touched); err != nil {
				var out bytes.Buffer
				printWorld(&out, h, touched)
				t.Fatalf("%v\n%s", err, out.String())
			}
			if un := h.Fake.Unhandled(); len(un) > 0 {
				t.Errorf("the app called routes the in-memory GitHub does not serve: %v", un)
			}
			before := h.Fake.Fingerprint()
			for _, d := range h.Delivered {
				if _, err := h.Deliver(context.Background(), d); err != nil {
					t.Fatal(err)
				}
			}
			if after := h.Fake.Fingerprint(); after != before {
				t.Errorf("replaying every delivery with the same ids changed the issues")
			}
		})
	}
}
