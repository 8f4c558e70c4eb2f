package replay_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
)

// typedLifecycle is one typed question's lifecycle in issue n, ask, answer and resolve,
// with the replies given before the one that fits.
func typedLifecycle(n int, misfits ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "issue #%d \"Importer workers\" by maria\n"+
		"coder-agent comments on #%[1]d:\n  /clarify @maria How many workers should the importer run?\n  Expect: number 1..100\n", n)
	for _, m := range misfits {
		fmt.Fprintf(&b, "maria comments on #%d:\n  %s\n", n, m)
	}
	fmt.Fprintf(&b, "maria comments on #%d:\n  20 workers\ncoder-agent comments on #%[1]d:\n  /clarify resolve CLR-%[1]d-001\n"+
		"expect CLR-%[1]d-001 resolved\n", n)
	return b.String()
}

// playTally counts the requests of a typed lifecycle in issue 60 with the replies misfits
// before the one that fits, on a fresh app and in-memory GitHub, after a first lifecycle in
// issue 6 made what a repository makes once (its labels, its decision memory).
func playTally(t *testing.T, misfits ...string) fakegithub.Tally {
	t.Helper()
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := replay.PlayScenario(context.Background(), h, "first", strings.NewReader("user maria write\nbot coder-agent\n"+typedLifecycle(6))); err != nil {
		t.Fatal(err)
	}
	h.Fake.Advance(time.Minute) // the decision memory is written at most once a minute
	h.Fake.ResetRequests()
	if err := replay.PlayScenario(context.Background(), h, "measured", strings.NewReader(typedLifecycle(60, misfits...))); err != nil {
		t.Fatal(err)
	}
	return h.Fake.Tally()
}

// TestAReplyThatDoesNotFitCostsOneWrite is issue 35's measure: a typed question's
// lifecycle with one reply that does not fit, beside one whose first reply fits. The reply
// that does not fit costs the reads of its run and one write, the reply in the thread: no
// status edit, no label, no reaction, no wake-up. `go test ./internal/replay -run
// TestAReplyThatDoesNotFit -v` prints the figures.
func TestAReplyThatDoesNotFitCostsOneWrite(t *testing.T) {
	fits := playTally(t)
	misfit := playTally(t, "about twenty")
	for _, c := range []struct {
		name string
		t    fakegithub.Tally
	}{{"fits the first time", fits}, {"one reply does not fit", misfit}} {
		t.Logf("%-24s %2d requests (token exchanges aside): %2d reads (%d answered 304), %2d writes",
			c.name, c.t.Total-c.t.TokenExchanges, c.t.Reads, c.t.NotModified, c.t.Writes)
	}
	if d := misfit.Writes - fits.Writes; d != 1 {
		t.Errorf("the reply that does not fit cost %d writes, want 1 (the reply in the thread)", d)
	}
	for _, route := range slices.Sorted(maps.Keys(misfit.Routes)) {
		d := misfit.Routes[route] - fits.Routes[route]
		switch {
		case d == 0 || route == "POST /app/installations/{installation_id}/access_tokens":
		case route == "POST /repos/{owner}/{repo}/issues/{issue_number}/comments" && d == 1:
		case strings.HasPrefix(route, "GET "):
			t.Logf("  its run read: %+d %s", d, route)
		default:
			t.Errorf("the reply that does not fit cost %+d %s, want only the reply in the thread", d, route)
		}
	}
}
