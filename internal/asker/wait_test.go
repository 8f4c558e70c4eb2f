package asker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/asker"
)

// ask asks maria through bot ask and returns the id.
func (w *world) ask(extra ...string) string {
	w.t.Helper()
	args := append([]string{"octo/widgets#42", "@maria", "Per API key or per client IP?"}, extra...)
	code, out, errs := w.run(asker.Door.Ask, args...)
	if code != 0 {
		w.t.Fatalf("bot ask: exit %d, %s %s", code, out, errs)
	}
	return strings.TrimSpace(out)
}

// say has login comment body in the issue, delivered to the app.
func (w *world) say(login, body string) func() {
	return func() {
		d, _ := w.h.Fake.Comment(repo, issue, login, body)
		w.deliver(d)
	}
}

// sweeps runs the app's sweep every interval of the world's time, up to until.
func (w *world) sweeps(every, until time.Duration) {
	for d := every; d <= until; d += every {
		w.after(d, func() {
			if _, err := w.h.Sweep(context.Background()); err != nil {
				w.t.Error(err)
			}
		})
	}
}

// waitCase is what happens in the world during a bot wait, and what it must say.
type waitCase struct {
	ask      []string
	meantime func(w *world)
	timeout  string
	code     int
	out      []string
	stderr   string
}

func TestWaitExitsWithOneCodePerOutcome(t *testing.T) {
	cases := map[string]waitCase{
		"answeredIsZero": {
			meantime: func(w *world) { w.after(7*time.Minute, w.say(person, "Per API key.")) },
			code:     0, out: []string{`"status": "answered"`, `"answer": "Per API key."`, `"outcome": "answered"`},
		},
		"abandonedIsFour": {
			meantime: func(w *world) {
				w.after(3*time.Minute, func() { w.deliver(w.h.Fake.CloseIssue(repo, issue, person)) })
			},
			code: 4, out: []string{`"status": "abandoned"`},
		},
		"resolvedByItsFallbackAfterATimeoutIsThree": {
			ask:      []string{"--option", "per API key", "--option", "per client IP", "--fallback", "a"},
			meantime: func(w *world) { w.sweeps(10*time.Minute, 2*time.Hour) },
			code:     3, out: []string{`"status": "resolved"`, `"outcome": "timeout_assumed"`},
		},
		"stillOpenWhenTheTimeIsUpIs124": {
			timeout: "20m", code: 124, out: []string{`"status": "pending"`}, stderr: "still pending after 20m",
		},
		"anEscalationIsToldAndTheWaitGoesOn": {
			meantime: func(w *world) {
				w.after(2*time.Minute, w.say(person, "/clarify escalate CLR-42-001 not mine to decide"))
				w.after(40*time.Minute, w.say(person, "Per API key."))
			},
			code: 0, out: []string{`"status": "answered"`}, stderr: "CLR-42-001 escalated",
		},
	}
	for name, tc := range cases {
		t.Run(name, tc.check)
	}
}

// check asks, lets the world go on, waits, and compares.
func (tc waitCase) check(t *testing.T) {
	w := newWorld(t)
	id := w.ask(tc.ask...)
	if tc.meantime != nil {
		tc.meantime(w)
	}
	timeout := tc.timeout
	if timeout == "" {
		timeout = "3h"
	}
	code, out, errs := w.run(asker.Door.Wait, "--json", "octo/widgets#42", id, "--timeout", timeout)
	if code != tc.code {
		t.Fatalf("bot wait: exit %d, want %d; stdout %s stderr %s", code, tc.code, out, errs)
	}
	for _, want := range tc.out {
		if !strings.Contains(out, want) {
			t.Errorf("bot wait printed %s; want %s in it", out, want)
		}
	}
	if !strings.Contains(errs, tc.stderr) {
		t.Errorf("bot wait's stderr %q; want %q in it", errs, tc.stderr)
	}
}

func TestAnIdleWaitCostsNoRateLimit(t *testing.T) {
	w := newWorld(t)
	id := w.ask()
	w.wire.counts()
	start := w.h.Fake.Now()
	code, out, errs := w.run(asker.Door.Wait, "octo/widgets#42", id, "--timeout", "10m")
	notModified, other, _ := w.wire.counts()
	t.Logf("bot wait, 10 minutes with nothing happening: %d requests GitHub counts, %d answered 304 (%s of the world's time)",
		other, notModified, w.h.Fake.Now().Sub(start))
	if code != asker.ExitStillOpen {
		t.Fatalf("bot wait: exit %d, %s %s; want 124", code, out, errs)
	}
	// The repository's config (whom to believe, once per process), finding the status
	// comment, and its first read by id; every read after that is a 304.
	if other > 3 {
		t.Errorf("an idle 10-minute wait made %d requests that count against the rate limit; want at most 3", other)
	}
	if notModified == 0 {
		t.Error("the wait read nothing again in 10 minutes")
	}

	// An hour of it, for the note.
	code, _, _ = w.run(asker.Door.Wait, "octo/widgets#42", id, "--timeout", "1h")
	notModified, other, _ = w.wire.counts()
	t.Logf("bot wait, 1 hour with nothing happening: %d requests GitHub counts, %d answered 304", other, notModified)
	if code != asker.ExitStillOpen || other > 3 {
		t.Errorf("an idle hour: exit %d, %d counted requests; want 124 and at most 3", code, other)
	}
}

// TestAWaitStartedBeforeTheAskIsTakenWaitsForIt starts bot wait before Clarify has taken
// the ask it waits for (an agent that waits right after asking, Clarify still queued):
// the wait says so once and waits, where it used to exit 1 at once. The ask is in the
// issue; GitHub delivers it to Clarify three minutes later.
func TestAWaitStartedBeforeTheAskIsTakenWaitsForIt(t *testing.T) {
	cases := map[string]struct {
		before []string // asked before the wait starts
		wait   string
	}{
		"noStatusCommentYet": {wait: "CLR-42-1"},
		"theNextID":          {before: []string{"Which header carries the limit?"}, wait: "CLR-42-002"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			for _, q := range tc.before {
				w.askAbout(q)
			}
			asked, _ := w.h.Fake.Comment(repo, issue, agent, "/clarify @maria Per API key or per client IP?")
			w.after(3*time.Minute, func() { w.deliver(asked) })
			w.after(6*time.Minute, w.say(person, "re CLR-42-"+tc.wait[len(tc.wait)-1:]+": Per API key."))
			code, out, errs := w.run(asker.Door.Wait, "octo/widgets#42", tc.wait, "--timeout", "1h")
			if code != asker.ExitAnswered || !strings.Contains(out, "Per API key.") {
				t.Fatalf("bot wait: exit %d, %q %s; want 0 and maria's answer", code, out, errs)
			}
			if n := strings.Count(errs, "has not taken it yet"); n != 1 {
				t.Errorf("bot wait told %d times that Clarify had not taken it yet; want once:\n%s", n, errs)
			}
		})
	}
}
