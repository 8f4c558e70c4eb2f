package handlers_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/replay"
)

// idleSLA keeps every question of the idle worlds waiting, so that nothing falls due while
// the sweep is measured.
const idleSLA = "sla: 4h\n"

// idleWorld is one installation with n active issues, 100 to a repository, each with one
// pending question asked through the app, none of them due for hours.
func idleWorld(t *testing.T, n int) *replay.Harness {
	t.Helper()
	var logs io.Writer = io.Discard
	if os.Getenv("CLARIFY_IDLE_LOGS") != "" {
		logs = os.Stderr
	}
	h, err := replay.NewHarness(logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	var repos []string
	for r := 0; r*100 < n; r++ {
		repos = append(repos, fmt.Sprintf("octo/r%02d", r))
	}
	h.Fake.AddInstallation(1, "octo", repos...)
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.AddUser("maria", "User")
	for _, r := range repos {
		h.Fake.SetPermission(r, "maria", "write")
		h.Fake.SetFile(r, ".github/clarify.yml", idleSLA)
	}
	for i := 0; i < n; i++ {
		r, num := repos[i/100], i%100+1
		h.Fake.OpenIssue(r, num, "Issue "+strconv.Itoa(num), "maria")
		d, _ := h.Fake.Comment(r, num, "coder-agent", "/clarify @maria Which region serves Asia?")
		if _, err := h.Deliver(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// TestIdleSweepCostsWhatIsDue is issue 9's measure: with 100 and 1,000 active issues and
// nothing due, the sweep run every minute (as serve does) makes no request at all except
// in its walk every DefaultReconcileEvery, and the walk lists issues without reading any:
// its cost follows the repositories, not the issues. Before the deadline index the same
// worlds cost 103 requests a minute for 100 issues, and 183 for 1,000 (the 200-request
// budget capped each sweep; a full pass took six sweeps). `go test ./handlers -run
// TestIdleSweep -v` prints the figures; -short leaves out the 1,000.
func TestIdleSweepCostsWhatIsDue(t *testing.T) {
	const minutes = 60
	for _, tc := range []struct {
		n    int
		skew time.Duration
	}{{100, 0}, {1000, 0}, {100, -2 * time.Minute}} {
		n := tc.n
		name := strconv.Itoa(n)
		if tc.skew != 0 {
			// The app's clock behind GitHub's: what GitHub's updated_at says cannot be
			// compared with the app's own times, only with what GitHub said before.
			name += " app clock " + tc.skew.String() + " from GitHub's"
		}
		t.Run(name, func(t *testing.T) {
			if n > 100 && testing.Short() {
				t.Skip("1,000 asks take a while under -race; run without -short for the figure")
			}
			h := idleWorld(t, n)
			h.SetAppClockSkew(tc.skew)
			ctx := context.Background()

			// The first walk reads each issue once: the asks' label writes came after the
			// saves, so the app cannot vouch for them yet.
			firstWalk, firstSweeps := walkToTheEnd(t, h)

			h.Fake.ResetRequests()
			var duePass, walk, walks, redeliver int
			for m := 0; m < minutes; m++ {
				h.Fake.Advance(time.Minute)
				before := len(h.Fake.Requests())
				st, err := h.Sweep(ctx)
				if err != nil {
					t.Fatal(err)
				}
				made := len(h.Fake.Requests()) - before
				if st.Issues != 0 {
					t.Errorf("minute %d: the sweep visited %d issues with nothing due: %+v", m+1, st.Issues, st)
				}
				if st.Reconciled {
					walks++
					walk += made
				} else {
					duePass += made
					if made != 0 {
						t.Errorf("minute %d: a sweep with nothing due and no walk made %d requests", m+1, made)
					}
				}
				// serve runs the redelivery check after every sweep: counted apart, since it
				// costs the same whatever the number of issues.
				before = len(h.Fake.Requests())
				if _, err := h.Redeliver(ctx); err != nil {
					t.Fatal(err)
				}
				redeliver += len(h.Fake.Requests()) - before
			}
			for _, r := range h.Fake.Requests() {
				if strings.Contains(r.Route, "{issue_number}") {
					t.Errorf("an idle sweep read an issue: %s %s", r.Method, r.Path)
				}
			}
			if walks == 0 {
				t.Fatalf("no walk in %d minutes", minutes)
			}
			t.Logf("%d active issues: per idle minute, due pass %.1f requests, walks %.2f (%d walks of %.1f), together %.2f; serve's redelivery check adds %.1f",
				n, float64(duePass)/float64(minutes-walks), float64(walk)/minutes, walks, float64(walk)/float64(walks),
				float64(duePass+walk)/minutes, float64(redeliver)/minutes)

			// A restart empties the in-memory index and the app's memory: the first walk
			// reads every active issue again, within the budget of each sweep.
			h.Stop()
			if _, err := h.Start(ctx); err != nil {
				t.Fatal(err)
			}
			restart, restartSweeps := walkToTheEnd(t, h)
			t.Logf("%d active issues: the walk after the asks %d requests over %d sweep(s); after a restart %d over %d",
				n, firstWalk, firstSweeps, restart, restartSweeps)
		})
	}
}

// walkToTheEnd runs sweeps a minute apart until one finishes its walk without running out of
// budget, and returns the requests they made and how many sweeps it took.
func walkToTheEnd(t *testing.T, h *replay.Harness) (requests, sweeps int) {
	t.Helper()
	before := len(h.Fake.Requests())
	for sweeps < 30 {
		h.Fake.Advance(time.Minute)
		st, err := h.Sweep(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sweeps++
		if st.Reconciled && st.Stopped == 0 {
			break
		}
	}
	return len(h.Fake.Requests()) - before, sweeps
}
