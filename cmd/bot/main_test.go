package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/replay"
)

// These tests cover the subcommands' wiring: flags, exit codes, what reaches stdout and
// stderr. What the app does is tested beside the code that does it (handlers, internal/app,
// internal/replay).

// TestDemoTellsTheStoryInOrder: the demo reads as the issue happened. The status comment
// shows where and as it was posted (pending, before the first reply), and its edits as they
// happen; the labels come and go; an agent's records and wake-ups show; every event is in
// time order; the cost is in plain words.
func TestDemoTellsTheStoryInOrder(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"replay"}, &out, &errs); code != 0 {
		t.Fatalf("replay exited %d: %s", code, errs.String())
	}
	demo := out.String()
	inOrder(t, demo,
		"09:00  maria opens #42",
		"09:00  coder-agent comments on #42:",
		"09:00  clarify[bot] posts the status comment on #42",
		"| CLR-42-001 | rate-limit scope | coder-agent → maria | pending | 1/5 |",
		"09:00  labels of #42: + clarification:active",
		"09:07  maria comments on #42:\n         Per API key",
		"09:07  clarify[bot] reacts 👍 to maria's comment",
		"09:07  clarify[bot] edits the status comment on #42 (posted at 09:00)",
		"| answered | 1/5 |",
		`repository_dispatch of type clarify-answered, whose client_payload is:`,
		`"answer": "Per API key: anonymous calls are already blocked at the gateway."`,
		"CLR-42-001 · round 2/5",
		`hidden, for agents: <!-- clarify:record {"v":1,"kind":"round","id":"CLR-42-001","round":2,"status":"pending"`,
		"09:40  labels of #42: + clarification:stale",
		"09:44  labels of #42: − clarification:stale",
		"| resolved | 2/5 |",
		"09:45  labels of #42: − clarification:active; (none left)",
		"repository_dispatch of type clarify-resolved",
		"What an agent receives:",
		"What the app asked of GitHub:",
	)
	var last string
	for _, m := range regexp.MustCompile(`(?m)^(\d\d:\d\d)  `).FindAllStringSubmatch(demo, -1) {
		if m[1] < last {
			t.Errorf("%s is told after %s", m[1], last)
		}
		last = m[1]
	}
	for _, internal := range []string{"304s", "token exchanges", "unhandled"} {
		if strings.Contains(demo, internal) {
			t.Errorf("the demo says %q, not plain words", internal)
		}
	}
}

// inOrder checks that text holds each of wants, each after the one before.
func inOrder(t *testing.T, text string, wants ...string) {
	t.Helper()
	rest := text
	for _, w := range wants {
		i := strings.Index(rest, w)
		if i < 0 {
			where := "at all"
			if strings.Contains(text, w) {
				where = "after the line before it"
			}
			t.Fatalf("the demo does not say %q %s:\n%s", w, where, text)
		}
		rest = rest[i+len(w):]
	}
}

func TestConfigCheck(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"config", "check", "../../repoconfig/testdata/full.yml"}, &out, &errs); code != 0 {
		t.Fatalf("full.yml: exit %d: %s", code, errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"config", "check", "../../repoconfig/testdata/broken.yml"}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "line 3") {
		t.Errorf("broken.yml: exit %d, %q: want a failure naming lines", code, errs.String())
	}
}

func TestServeRefusesToStartWithoutAWebhookSecret(t *testing.T) {
	t.Setenv("GITHUB_APP_WEBHOOK_SECRET", "")
	path := filepath.Join(t.TempDir(), "config.yml")
	if err := os.WriteFile(path, []byte("github:\n  app:\n    integration_id: 7\n    private_key: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"serve", "-c", path}, &out, &errs); code == 0 || !strings.Contains(errs.String(), "webhook_secret") {
		t.Errorf("serve exited %d (%s), want a failure naming webhook_secret", code, errs.String())
	}
}

func TestSweepCommandRunsOneSweep(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ask := "user maria write\nbot coder-agent\nissue #42 \"Rate-limit the public API\" by maria\n" +
		"coder-agent comments on #42: /clarify @maria Per key or per IP?\n"
	if err := replay.PlayScenario(context.Background(), h, "ask", strings.NewReader(ask)); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_V3_API_URL":         h.Config.Github.V3APIURL,
		"GITHUB_APP_INTEGRATION_ID": strconv.FormatInt(h.Config.Github.App.IntegrationID, 10),
		"GITHUB_APP_WEBHOOK_SECRET": string(h.Secret),
		"GITHUB_APP_PRIVATE_KEY":    h.Config.Github.App.PrivateKey,
	} {
		t.Setenv(k, v)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"sweep"}, &out, &errs); code != 0 {
		t.Fatalf("bot sweep exited %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), `"issues":1`) {
		t.Errorf("the sweep log does not report the issue it swept: %s", out.String())
	}
	// What this proves is the wiring: config from the environment, the app JWT, the
	// installations, the active issues. The deadlines themselves are tested with the
	// virtual clock elsewhere; this command runs on the wall clock.
}

// badConfig has one mistake of each kind an operator makes; line numbers matter below.
const badConfig = `server:
  port: 80a
clarify:
  worker: 4
  sweep_interval: 60
github:
  app:
    integration_id: 7
    webhook_secret: s
    private_key: /etc/clarify/app.pem
`

func TestServeAndSweepRefuseABadConfigBeforeListening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(path, []byte(badConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_APP_INTEGRATION_ID", "seven")
	want := []string{
		"not started: the configuration has mistakes:",
		path + `: server.port (line 2): "80a" is not a whole number`,
		path + ": clarify.worker (line 4) is not a setting; did you mean workers?",
		path + ": clarify.sweep_interval (line 5): 60 needs a unit, e.g. 60s",
		`GITHUB_APP_INTEGRATION_ID="seven" is not a number`,
		`github.app.private_key (GITHUB_APP_PRIVATE_KEY) holds a file path ("/etc/clarify/app.pem"), not a key: name the file in github.app.private_key_file`,
	}
	for _, cmd := range []string{"serve", "sweep"} {
		t.Run(cmd, func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := run([]string{cmd, "-c", path}, &out, &errs); code != 1 {
				t.Errorf("bot %s exited %d, want 1", cmd, code)
			}
			for _, w := range want {
				if !strings.Contains(errs.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs.String())
				}
			}
		})
	}
	listened := func(network, addr string) (net.Listener, error) {
		t.Errorf("serve listened on %s with a bad config", addr)
		return nil, errors.New("not in this test")
	}
	if err := serve(context.Background(), []string{"-c", path}, io.Discard, io.Discard, listened); err == nil {
		t.Error("serve returned nil with a bad config")
	}
}

// TestServeBecomesReadyOnceGitHubAcceptsTheApp runs serve as an operator would, with the
// key in a file, against the in-memory GitHub: alive at once, ready once GitHub has
// accepted the app's JWT, and stopped cleanly.
func TestServeBecomesReadyOnceGitHubAcceptsTheApp(t *testing.T) {
	h, err := replay.NewHarness(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	keyFile := filepath.Join(t.TempDir(), "app.pem")
	if err := os.WriteFile(keyFile, []byte(h.Config.Github.App.PrivateKey), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_V3_API_URL":           h.Config.Github.V3APIURL,
		"GITHUB_APP_INTEGRATION_ID":   strconv.FormatInt(h.Config.Github.App.IntegrationID, 10),
		"GITHUB_APP_WEBHOOK_SECRET":   string(h.Secret),
		"GITHUB_APP_PRIVATE_KEY_FILE": keyFile,
	} {
		t.Setenv(k, v)
	}
	addrs := make(chan string, 1)
	listen := func(network, _ string) (net.Listener, error) {
		ln, err := net.Listen(network, "127.0.0.1:0")
		if err == nil {
			addrs <- ln.Addr().String()
		}
		return ln, err
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, nil, io.Discard, io.Discard, listen) }()
	var base string
	select {
	case addr := <-addrs:
		base = "http://" + addr
	case err := <-done:
		t.Fatalf("serve stopped before listening: %v", err)
	}

	status := func(path string) int {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/healthz"); got != http.StatusOK {
		t.Errorf("healthz = %d", got)
	}
	for deadline := time.Now().Add(10 * time.Second); status("/readyz") != http.StatusOK; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("readyz never answered 200, though the in-memory GitHub accepts the app")
		}
	}
	stop()
	if err := <-done; err != nil {
		t.Errorf("serve stopped with %v", err)
	}
}
