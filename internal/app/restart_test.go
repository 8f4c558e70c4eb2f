package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
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
	h := newHarnessWith(t, func(c *app.Config) { c.Clarify.RedisURL = srv.URL })
	ctx := context.Background()
	for n := 1; n <= 10; n++ {
		restartAsk(t, h, n, "/clarify @maria Which region serves Asia?")
	}
	restartSweep(t, h)
	for range 2 { // stale, then escalated
		h.Fake.Advance(31 * time.Minute)
		restartSweep(t, h)
	}
	for n := 11; n <= 20; n++ {
		restartAsk(t, h, n, "/clarify @maria Which zone serves Europe?\nOptions:\na) eu-west\nb) eu-central\nFallback: a")
	}
	h.Fake.Advance(16 * time.Minute) // past clarify.walk_interval: the sweep walks
	restartSweep(t, h)

	h.Stop()
	if _, err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	before := len(h.Fake.Requests())
	restartSweep(t, h)
	read := issuesRead(h.Fake.Requests()[before:])
	t.Logf("the restarted app's first walk read %d of 20 active issues, %d requests", len(read), len(h.Fake.Requests())-before)
	if len(read) > 2 {
		t.Errorf("the restarted app's first walk read %d of 20 active issues (%v); want at most a tenth", len(read), read)
	}

	h.Fake.Advance(15 * time.Minute) // the pending questions' deadline (30m) has passed
	restartSweep(t, h)
	for n := 1; n <= 20; n++ {
		want := clarify.Escalated
		if n > 10 {
			want = clarify.Stale
		}
		l, err := h.Ledger(repo, n)
		if c, ok := l.Find(clarify.FormatID(n, 1)); err != nil || !ok || c.Status != want {
			t.Errorf("#%d under the restarted app: %s (%v); want %s", n, c.Status, err, want)
		}
	}
}

// restartAsk opens issue n and delivers the bot's ask in it.
func restartAsk(t *testing.T, h *replay.Harness, n int, body string) {
	t.Helper()
	h.Fake.OpenIssue(repo, n, fmt.Sprintf("Issue %d", n), "maria")
	d, _ := h.Fake.Comment(repo, n, "coder-agent", body)
	if st, err := h.Deliver(context.Background(), d); err != nil || st != http.StatusOK {
		t.Fatalf("ask in #%d: %d %v", n, st, err)
	}
}

func restartSweep(t *testing.T, h *replay.Harness) {
	t.Helper()
	if _, err := h.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// issuesRead names the issues of repo that requests read (GET), by number.
func issuesRead(reqs []fakegithub.Request) map[string]bool {
	read := map[string]bool{}
	for _, r := range reqs {
		if rest, ok := strings.CutPrefix(r.Path, "/repos/"+repo+"/issues/"); ok && r.Method == http.MethodGet {
			num, _, _ := strings.Cut(rest, "/")
			read[num] = true
		}
	}
	return read
}

// TestARestartRightAfterEscalationsReadsLittle: twenty questions go stale, then escalate,
// each escalation a run that writes to its issue (the label, the maintainers' ping, the
// status comment), and the app restarts before any walk has read them since. The index
// entries keep GitHub's time of each run's last write, so the restarted app's first walk
// does not take the app's own writes for a change: it reads at most a tenth of the issues.
// A person's reply made after the escalation, whose delivery GitHub never sent, is still
// found by that walk.
func TestARestartRightAfterEscalationsReadsLittle(t *testing.T) {
	srv := redistest.Start(t)
	h := newHarnessWith(t, func(c *app.Config) { c.Clarify.RedisURL = srv.URL })
	ctx := context.Background()
	for n := 1; n <= 20; n++ {
		restartAsk(t, h, n, "/clarify @maria Which region serves Asia?")
	}
	restartSweep(t, h)
	for range 2 { // stale, then escalated
		h.Fake.Advance(31 * time.Minute)
		restartSweep(t, h)
	}
	for n := 1; n <= 20; n++ {
		if l, err := h.Ledger(repo, n); err != nil || l.Clarifications[0].Status != clarify.Escalated {
			t.Fatalf("#%d before the restart: %+v, %v; want escalated", n, l.Clarifications, err)
		}
	}
	h.Fake.Advance(time.Minute)
	h.Fake.Comment(repo, 7, "maria", "Singapore.") // its delivery is never sent

	h.Stop()
	if _, err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	h.Fake.Advance(16 * time.Minute) // past clarify.walk_interval: the sweep walks
	before := len(h.Fake.Requests())
	restartSweep(t, h)
	read := issuesRead(h.Fake.Requests()[before:])
	t.Logf("the restarted app's first walk after 20 escalations read %d of 20 active issues, %d requests", len(read), len(h.Fake.Requests())-before)
	if len(read) > 2 || !read["7"] {
		t.Errorf("the restarted app's first walk read %v; want #7 (answered since) and at most a tenth of the 20", read)
	}
	if l, _ := h.Ledger(repo, 7); l.Clarifications[0].Status != clarify.Answered {
		t.Errorf("#7's question is %s after the walk, want answered by maria's reply", l.Clarifications[0].Status)
	}
}
