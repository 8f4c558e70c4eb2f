package replay_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/replay"
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
			h, err := replay.NewHarness(io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if err := replay.PlayScenario(context.Background(), h, name, bytes.NewReader(b)); err != nil {
				var out bytes.Buffer
				h.PrintWorld(&out)
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

func TestRecordedDeliveries(t *testing.T) {
	files, _ := filepath.Glob("testdata/deliveries/*.http")
	if len(files) == 0 {
		t.Fatal("no recorded deliveries under testdata/deliveries")
	}
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := replay.PlayRecorded(context.Background(), h, f, bytes.NewReader(b)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var out bytes.Buffer
	h.PrintWorld(&out)
	if !strings.Contains(out.String(), "Clarification needed · CLR-") {
		t.Errorf("the recorded ask was not mirrored:\n%s", out.String())
	}
}

// askScenario opens #7 and asks; the checks below it hold.
const askScenario = `user maria write
bot coder-agent
issue #7 "Export widgets as CSV" by maria
coder-agent comments on #7: /clarify @maria Should the export include archived widgets?
expect CLR-7-001 pending
expect CLR-7-001 round 1
expect #7 labels clarification:active
expect #7 bot says "Clarification needed · CLR-7-001" once
expect #7 bot says nothing "Still waiting"
`

func TestFailedChecksAreAllReportedWithWhatWasFound(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	script := askScenario + "expect CLR-7-001 answered\nexpect #7 labels none\nexpect #7 assumption \"leave them out\"\n"
	err = replay.PlayScenario(context.Background(), h, "ask.txt", strings.NewReader(script))
	for _, want := range []string{
		"3 expectation(s) failed",
		"ask.txt:10: expect CLR-7-001 answered: got status pending",
		"ask.txt:11: expect #7 labels none: got labels clarification:active",
		"ask.txt:12: expect #7 assumption \"leave them out\": got 0 assumption(s), none holding it",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to hold %q", err, want)
		}
	}
}

func TestMistypedCheckFailsBeforeAnythingIsPlayed(t *testing.T) {
	for name, tc := range map[string]struct{ check, want string }{
		"unknownCheck":         {"expect #7 comments 3", "unknown check"},
		"unquotedText":         {"expect #7 bot says Still waiting", "double quotes"},
		"nothingAndOnce":       {`expect #7 bot says nothing "x" once`, "contradict"},
		"roundWithoutANumber":  {"expect CLR-7-001 round two", "round N"},
		"unquotedAssumption":   {"expect #7 assumption leave them out", "double quotes"},
		"subjectIsNotAnIssue":  {"expect 7 labels none", "issue reference"},
		"clarificationWithout": {"expect CLR-7 stale", "clarification id"},
	} {
		t.Run(name, func(t *testing.T) {
			h, err := replay.NewHarness(io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			err = replay.PlayScenario(context.Background(), h, "typo.txt", strings.NewReader(askScenario+tc.check+"\n"))
			if err == nil || !strings.Contains(err.Error(), "typo.txt: line 10:") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming line 10 and holding %q", err, tc.want)
			}
			if n := len(h.Delivered); n != 0 {
				t.Errorf("%d deliveries were sent before the mistake was found", n)
			}
		})
	}
}
