package replay_test

import (
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
)

// burstMinute is how long a minute lasts in the burst test, for GitHub's content limit and
// the app's pacer alike, so that minutes of pacing take seconds.
const burstMinute = 2 * time.Second

// TestABurstOfFiftyAsksStaysUnderGitHubsContentLimit sends 50 asks at once in one
// installation, with the in-memory GitHub refusing content past 80 a minute and 500 an
// hour as GitHub does, counted when each write arrives, and prints how long they take to
// be mirrored: paced at the limits, at the limits with half the writes 10 s (of a
// minute) on their way, and paced at a fixed write a second (GitHub's general advice).
func TestABurstOfFiftyAsksStaysUnderGitHubsContentLimit(t *testing.T) {
	const asks = 50
	limits := func(c *app.Config) { c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour = 80, 500 }
	pacings := []struct {
		name    string
		tune    func(*app.Config)
		transit time.Duration
	}{
		{"at the limits (80 a minute, 500 an hour)", limits, 0},
		{"at the limits, half the writes 10 s on their way", limits, burstMinute / 6},
		{"one write a second", func(c *app.Config) {
			c.Clarify.WritesPerMinute, c.Clarify.WritesPerHour, c.PaceSpacing = -1, -1, burstMinute/60
		}, 0},
	}
	for _, pc := range pacings {
		h, err := replay.NewHarnessWith(io.Discard, func(c *app.Config) {
			pc.tune(c)
			c.PaceMinute = burstMinute
		})
		if err != nil {
			t.Fatal(err)
		}
		h.Fake.AddInstallation(1, "octo", chaosRepo)
		h.Fake.AddUser("maria", "User")
		h.Fake.SetPermission(chaosRepo, "maria", "write")
		h.Fake.AddUser("coder-agent", "Bot")
		var ds []fakegithub.Delivery
		for i := 1; i <= asks; i++ {
			h.Fake.OpenIssue(chaosRepo, i, "Issue "+strconv.Itoa(i), "maria")
			d, _ := h.Fake.Comment(chaosRepo, i, "coder-agent", "/clarify @maria Per key or per IP?")
			ds = append(ds, d)
		}
		h.Fake.SetContentLimit(fakegithub.ContentLimit{PerMinute: 80, PerHour: 500, Minute: burstMinute, Transit: pc.transit})
		h.Fake.ResetRequests()

		start := time.Now()
		sendAtOnce(t, h, ds)
		took := time.Since(start)

		mirrored, writes := 0, 0
		for i := 1; i <= asks; i++ {
			for _, c := range h.Fake.Comments(chaosRepo, i) {
				if c.User == h.Fake.BotLogin() && strings.Contains(c.Body, "Clarification needed") {
					mirrored++
				}
			}
		}
		for _, r := range h.Fake.Requests() {
			if r.Method != "GET" && !strings.Contains(r.Route, "access_tokens") {
				writes++
			}
		}
		t.Logf("%s: %d asks mirrored, %d writes, %d refused by GitHub, in %.1f minutes",
			pc.name, mirrored, writes, h.Fake.ContentRefusals(), float64(took)/float64(burstMinute))
		if mirrored != asks {
			t.Errorf("%s: %d of %d asks mirrored", pc.name, mirrored, asks)
		}
		if n := h.Fake.ContentRefusals(); n != 0 {
			t.Errorf("%s: GitHub refused %d writes", pc.name, n)
		}
		h.Close()
	}
}

// sendAtOnce sends every delivery at the same moment, as GitHub does for a burst of
// events, and waits until the app has run them all.
func sendAtOnce(t *testing.T, h *replay.Harness, ds []fakegithub.Delivery) {
	t.Helper()
	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Go(func() {
			if _, err := fakegithub.Send(context.Background(), h.AppServer.Client(), h.HookURL(), h.Secret, d); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	h.App.Scheduler.Wait()
}
