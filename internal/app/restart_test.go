package app_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
	"github.com/clarify-app/clarify/internal/replay"
)

// TestARestartedAppReadsWhatChanged: with Redis, the deadline index outlives the process.
// Ten issues escalated (nothing left for time to do, they wait on people) and ten with a
// question pending, all walked once since their last change; the app restarts. Its first
// walk reads at most a tenth of the twenty active issues, and the pending questions still
// go stale on time under the restarted app.
func TestARestartedAppReadsWhatChanged(t *testing.T) {
	srv := redistest.Start(t)
	h, err := replay.NewHarnessWith(io.Discard, func(c *app.Config) { c.Clarify.RedisURL = srv.URL })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	ctx := context.Background()
	ask := func(n int, body string) {
		t.Helper()
		h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
		d, _ := h.Fake.Comment(repo, n, "coder-agent", body)
		if st, err := h.Deliver(ctx, d); err != nil || st != http.StatusOK {
			t.Fatalf("ask in #%d: %d %v", n, st, err)
		}
	}
	sweep := func() {
		t.Helper()
		if _, err := h.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 10; n++ {
		ask(n, "/clarify @maria Which region serves Asia?")
	}
	sweep()
	for range 2 { // stale, then escalated
		h.Fake.Advance(31 * time.Minute)
		sweep()
	}
	for n := 11; n <= 20; n++ {
		ask(n, "/clarify @maria Which zone serves Europe?\nOptions:\na) eu-west\nb) eu-central\nFallback: a")
	}
	h.Fake.Advance(16 * time.Minute) // past clarify.walk_interval: the sweep walks
	sweep()

	h.Stop()
	if _, err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	before := len(h.Fake.Requests())
	sweep()
	read := map[string]bool{}
	for _, r := range h.Fake.Requests()[before:] {
		if rest, ok := strings.CutPrefix(r.Path, "/repos/"+repo+"/issues/"); ok && r.Method == http.MethodGet {
			num, _, _ := strings.Cut(rest, "/")
			read[num] = true
		}
	}
	t.Logf("the restarted app's first walk read %d of 20 active issues, %d requests", len(read), len(h.Fake.Requests())-before)
	if len(read) > 2 {
		t.Errorf("the restarted app's first walk read %d of 20 active issues (%v); want at most a tenth", len(read), read)
	}

	h.Fake.Advance(15 * time.Minute) // the pending questions' deadline (30m) has passed
	sweep()
	for n := 11; n <= 20; n++ {
		l, err := h.Ledger(repo, n)
		if c, ok := l.Find(clarify.FormatID(n, 1)); err != nil || !ok || c.Status != clarify.Stale {
			t.Errorf("#%d after its deadline under the restarted app: %s (%v); want stale", n, c.Status, err)
		}
	}
	for n := 1; n <= 10; n++ {
		l, err := h.Ledger(repo, n)
		if c, ok := l.Find(clarify.FormatID(n, 1)); err != nil || !ok || c.Status != clarify.Escalated {
			t.Errorf("#%d: %s (%v); want escalated", n, c.Status, err)
		}
	}
}
