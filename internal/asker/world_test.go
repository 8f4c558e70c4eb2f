package asker_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/asker"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
)

const (
	repo   = "octo/widgets"
	issue  = 42
	agent  = "coder-agent"
	person = "maria"
)

// world is the in-memory GitHub with the real app behind it, an issue, and the agent's
// token; the asker's client runs on the world's clock, and each of its sleeps lets time
// pass in the world: deliveries reach the app, and what the test scheduled happens.
type world struct {
	t     *testing.T
	h     *replay.Harness
	token string
	// wire logs the client's requests as they reached GitHub (under its cache).
	wire *wireLog
	// pump false holds GitHub's deliveries back (an app that takes nothing).
	pump bool
	// events run once the world's clock reaches their time.
	events []event
}

type event struct {
	at time.Time
	do func()
}

func newWorld(t *testing.T) *world {
	t.Helper()
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	f := h.Fake
	f.AddInstallation(1, "octo", repo)
	f.AddUser(agent, "User")
	f.SetPermission(repo, agent, "write")
	f.SetPermission(repo, person, "write")
	w := &world{t: t, h: h, token: f.PersonalToken(repo, agent), wire: &wireLog{next: http.DefaultTransport}, pump: true}
	w.deliver(f.OpenIssue(repo, issue, "Rate limit", person))
	return w
}

// deliver sends one of GitHub's deliveries to the app and waits until it has run.
func (w *world) deliver(d fakegithub.Delivery) {
	w.t.Helper()
	if _, err := w.h.Deliver(context.Background(), d); err != nil {
		w.t.Fatal(err)
	}
}

// after schedules do for when d of the world's time has passed.
func (w *world) after(d time.Duration, do func()) {
	w.events = append(w.events, event{at: w.h.Fake.Now().Add(d), do: do})
}

// sleep is the client's sleep: the world's time passes, GitHub delivers what happened,
// and the events that came due happen.
func (w *world) sleep(ctx context.Context, d time.Duration) error {
	w.h.Fake.Advance(d)
	if w.pump {
		for _, dl := range w.h.Fake.TakeOutbox() {
			w.deliver(dl)
		}
	}
	now := w.h.Fake.Now()
	var later []event
	for _, e := range w.events {
		if now.Before(e.at) {
			later = append(later, e)
			continue
		}
		e.do()
	}
	w.events = later
	return ctx.Err()
}

// door is bot's way in for the agent, in App mode, writing to out and errs.
func (w *world) door(out, errs *bytes.Buffer, env map[string]string) asker.Door {
	getenv := func(k string) string { return env[k] }
	return asker.Door{Prog: "bot", Stdout: out, Stderr: errs, DefaultSlug: "clarify",
		Env: asker.Env{Getenv: func(k string) string {
			if k == "GITHUB_API_URL" {
				return w.h.GitHub.URL + "/"
			}
			return getenv(k)
		}, Token: func() (string, string, error) { return w.token, "GITHUB_TOKEN", nil }},
		Transport: w.wire, Now: w.h.Fake.Now, Sleep: w.sleep}
}

// run runs a door's command and returns its exit code, stdout and stderr.
func (w *world) run(cmd func(asker.Door, []string) int, args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := cmd(w.door(&out, &errs, nil), args)
	return code, out.String(), errs.String()
}

// wireLog records the status of each request that reached GitHub.
type wireLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	log  []string
}

func (l *wireLog) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	if err == nil {
		l.mu.Lock()
		l.log = append(l.log, r.Method+" "+r.URL.Path+" "+http.StatusText(resp.StatusCode))
		l.mu.Unlock()
	}
	return resp, err
}

// counts returns the requests since the last call: those GitHub answered 304, and the rest.
func (l *wireLog) counts() (notModified, other int, lines []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.log {
		if strings.HasSuffix(s, http.StatusText(http.StatusNotModified)) {
			notModified++
		} else {
			other++
		}
	}
	lines, l.log = l.log, nil
	return notModified, other, lines
}
