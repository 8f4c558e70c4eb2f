package main

import (
	"bytes"
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/golang-jwt/jwt/v4"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/testenv"
)

// chromium finds Debian's Chromium. Without it the browser test cannot run: in CI (which
// installs it in .ci/run) that is a failure, elsewhere a skip that says how to get it.
func chromium(t *testing.T) string {
	t.Helper()
	return testenv.LookPath(t, "headless Chromium is not installed, so `bot setup` is not tried in a browser: "+
		"install Debian's package (apt-get install chromium), as .ci/run does", "chromium", "chromium-browser")
}

// TestSetupRegistersTheAppInABrowser drives the whole manifest flow in headless Chromium:
// `bot setup`'s page, the in-memory GitHub's confirmation, the redirect back, the code
// exchange, and the files it leaves, which `bot serve` must be able to load. It runs where
// there is no app.yml, as an installed binary does: the manifest is the one built in.
func TestSetupRegistersTheAppInABrowser(t *testing.T) {
	exe := chromium(t)
	t.Chdir(t.TempDir())

	api := fakegithub.New(fakegithub.Options{})
	manifests := fakegithub.NewManifests(api, "alice")
	web := httptest.NewServer(manifests.Web())
	defer web.Close()
	rest := httptest.NewServer(manifests.API())
	defer rest.Close()

	configPath := filepath.Join(t.TempDir(), "clarify.yml")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	addr, exited, stdout, stderr := startSetup(t, ctx, web.URL, rest.URL, configPath)

	tab, browserOut := headlessTab(t, ctx, exe)
	fail := func(step string, err error) {
		t.Helper()
		page, _ := chromedp.Run(tab, chromedp.OuterHTML(chromedp.CSS("html")))
		where, _ := chromedp.Run(tab, chromedp.Location())
		t.Fatalf("%s: %v\nthe browser is at %s:\n%s\nbot setup said:\n%s\nChromium said:\n%s", step, err, where, page, stderr.String(), tail(browserOut.String(), 2000))
	}

	if err := chromedp.Do(tab,
		chromedp.Navigate("http://"+addr+"/"),
		chromedp.WaitVisible(chromedp.ID("register")),
	); err != nil {
		fail("opening bot setup's page", err)
	}
	hook, err := chromedp.Run(tab, chromedp.Text(chromedp.ID("hook-url")))
	if err != nil || hook != "https://clarify.test.example.org/api/github/hook" {
		t.Errorf("the page shows the webhook URL %q (%v)", hook, err)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.ID("register")),
		chromedp.WaitVisible(chromedp.ID("create-app")),
	); err != nil {
		fail("posting the manifest to GitHub", err)
	}
	if name, _ := chromedp.Run(tab, chromedp.Text(chromedp.ID("app-name"))); name != "Clarify" {
		t.Errorf("GitHub's confirmation shows the name %q, want app.yml's", name)
	}
	if err := chromedp.Do(tab,
		chromedp.Click(chromedp.ID("create-app")),
		chromedp.WaitVisible(chromedp.ID("done")),
	); err != nil {
		fail("creating the app and coming back", err)
	}
	shown, page := resultPage(tab, fail)
	waitForExit(t, exited, stderr)
	registered := oneConvertedApp(t, manifests)
	keyPath := filepath.Join(filepath.Dir(configPath), "clarify.private-key.pem")
	if shown["config-file"] != configPath || shown["key-file"] != keyPath ||
		shown["install"] != web.URL+"/apps/clarify/installations/new" || shown["app-id"] != "1300001" {
		t.Errorf("the result page shows %v", shown)
	}
	checkNoSecret(t, registered, map[string]string{"the result page": page, "the output": stdout.String() + stderr.String()})
	if out := stdout.String(); !strings.Contains(out, "Registered the GitHub App clarify (App ID 1300001)") || !strings.Contains(out, "bot serve -c "+configPath) {
		t.Errorf("bot setup printed:\n%s", out)
	}

	checkWrittenFiles(t, configPath, keyPath, registered, web.URL, rest.URL)
}

// resultPage reads what bot setup's result page shows in tab, by element id, and the whole
// page; fail reports a page that lacks one.
func resultPage(tab context.Context, fail func(step string, err error)) (shown map[string]string, page string) {
	shown = map[string]string{}
	for _, id := range []string{"config-file", "key-file", "install", "app-id"} {
		text, err := chromedp.Run(tab, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			fail("reading the result page", err)
		}
		shown[id] = text
	}
	page, _ = chromedp.Run(tab, chromedp.OuterHTML(chromedp.CSS("html")))
	return shown, page
}

// waitForExit fails t unless bot setup exits without an error soon after writing its files.
func waitForExit(t *testing.T, exited chan error, stderr *testenv.Buffer) {
	t.Helper()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("bot setup: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("bot setup did not exit once the files were written")
	}
}

// oneConvertedApp is the one app registered on GitHub, whose code was exchanged.
func oneConvertedApp(t *testing.T, manifests *fakegithub.Manifests) fakegithub.RegisteredApp {
	t.Helper()
	apps := manifests.Apps()
	if len(apps) != 1 || !apps[0].Converted {
		t.Fatalf("GitHub has %+v, want one app whose code was exchanged", apps)
	}
	return apps[0]
}

// checkNoSecret fails t for each text (by what it is) showing the app's webhook secret or
// a private key.
func checkNoSecret(t *testing.T, registered fakegithub.RegisteredApp, texts map[string]string) {
	t.Helper()
	for what, text := range texts {
		if strings.Contains(text, registered.WebhookSecret) || strings.Contains(text, "PRIVATE KEY-----") {
			t.Errorf("%s shows a secret", what)
		}
	}
}

// headlessTab starts headless Chromium for the test; browserOut gets what it prints.
func headlessTab(t *testing.T, ctx context.Context, exe string) (tab context.Context, browserOut *testenv.Buffer) {
	t.Helper()
	browserOut = &testenv.Buffer{}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		// This machine's network is closed: without these, Chromium keeps dialling out.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.CombinedOutput(browserOut),
	)...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	return tab, browserOut
}

// startSetup runs `bot setup` against the in-memory GitHub and waits until it has said
// where its page listens; exited gets what it returns.
func startSetup(t *testing.T, ctx context.Context, webURL, restURL, configPath string) (addr string, exited chan error, stdout, stderr *testenv.Buffer) {
	t.Helper()
	addrs := make(chan string, 1)
	listen := func(network, addr string) (net.Listener, error) {
		ln, err := net.Listen(network, addr)
		if err == nil {
			addrs <- ln.Addr().String()
		}
		return ln, err
	}
	stdout, stderr = &testenv.Buffer{}, &testenv.Buffer{}
	exited = make(chan error, 1)
	go func() {
		exited <- runSetup(ctx, []string{
			"-web", webURL, "-api", restURL + "/",
			"-webhook-url", "https://clarify.test.example.org",
			"-o", configPath,
		}, stdout, stderr, listen)
	}()
	select {
	case addr = <-addrs:
	case err := <-exited:
		t.Fatalf("bot setup stopped before listening: %v\n%s", err, stderr.String())
	}
	if want := "Open http://" + addr + "/ in your browser"; !waitFor(func() bool { return strings.Contains(stdout.String(), want) }) {
		t.Errorf("bot setup printed %q, want %q", stdout.String(), want)
	}
	return addr, exited, stdout, stderr
}

// checkWrittenFiles checks what `bot setup` left: the config and the key, readable by
// nobody else, holding what GitHub handed over, and loading as `bot serve` loads them.
func checkWrittenFiles(t *testing.T, configPath, keyPath string, registered fakegithub.RegisteredApp, webURL, restURL string) {
	t.Helper()
	for _, p := range []string{configPath, keyPath} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600: it holds a secret", p, st.Mode().Perm())
		}
	}
	pemBytes, err := os.ReadFile(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM(pemBytes)
	if err != nil || !key.Equal(registered.Key) {
		t.Errorf("%s does not hold the key GitHub handed over (parse error: %v)", keyPath, err)
	}
	cfg, err := app.LoadConfig(configPath)
	if err != nil {
		t.Fatalf("bot serve could not load what bot setup wrote: %v", err)
	}
	if cfg.Github.App.IntegrationID != registered.ID || cfg.Github.App.WebhookSecret != registered.WebhookSecret ||
		cfg.Clarify.AppSlug != registered.Slug || cfg.Github.WebURL != webURL || cfg.Github.V3APIURL != restURL+"/" ||
		cfg.PrivateKeyFile != keyPath || cfg.Github.App.PrivateKey != string(pemBytes) {
		t.Errorf("the config loads as %+v, not the registered app %d %q", cfg.Github, registered.ID, registered.Slug)
	}
}

// waitFor polls cond for a few seconds: the command prints its URL just after listening.
func waitFor(cond func() bool) bool {
	for range 100 {
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cond()
}

func TestSetupRefusesToStartWhereItWouldOverwriteOrLeaveLoopback(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(existing, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join("..", "..", "app.yml")
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"existingConfig":     {[]string{"-webhook-url", "https://h.example.org", "-manifest", manifest, "-o", existing}, "exists: bot setup does not overwrite it"},
		"publicAddress":      {[]string{"-webhook-url", "https://h.example.org", "-manifest", manifest, "-listen", "0.0.0.0:0"}, "not a loopback address"},
		"placeholderWebhook": {[]string{"-manifest", manifest, "-o", filepath.Join(dir, "new.yml")}, "pass -webhook-url"},
		"extraArgument":      {[]string{"config.yml"}, `unexpected argument "config.yml"`},
		"noManifestThere":    {[]string{"-webhook-url", "https://h.example.org", "-manifest", filepath.Join(dir, "app.yml"), "-o", filepath.Join(dir, "new.yml")}, "no GitHub App manifest at " + filepath.Join(dir, "app.yml")},
	} {
		t.Run(name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := runSetup(context.Background(), tc.args, &stderr, &stderr, net.Listen)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("runSetup: %v, want an error with %q", err, tc.want)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "kept\n" {
		t.Errorf("the existing config became %q", b)
	}
}

// TestSetupReadsTheBuiltInManifestWhereThereIsNoAppYml: run in a directory without app.yml
// and without -manifest, bot setup reads the manifest built into it, whose webhook URL is
// the placeholder, and so asks for -webhook-url rather than for a manifest.
func TestSetupReadsTheBuiltInManifestWhereThereIsNoAppYml(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run([]string{"setup", "-o", "c.yml"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "pass -webhook-url") {
		t.Errorf("exit %d, stderr %q; want exit 2 asking for -webhook-url, the built-in app.yml's placeholder", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}

// TestSetupWithoutAWebhookURLIsAUsageMistake: with app.yml's placeholder webhook URL and
// no -webhook-url, bot setup exits 2 with one line saying to pass -webhook-url, and writes
// nothing.
func TestSetupWithoutAWebhookURLIsAUsageMistake(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"setup", "-manifest", filepath.Join("..", "..", "app.yml"), "-o", filepath.Join(dir, "c.yml")}, &stdout, &stderr)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "bot setup: ") || !strings.Contains(lines[0], "pass -webhook-url") {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line saying to pass -webhook-url", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}

func TestSetupStoppedBeforeTheCallbackWritesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	listen := func(network, addr string) (net.Listener, error) {
		defer cancel() // the user presses Ctrl-C as soon as the page is up
		return net.Listen(network, addr)
	}
	err := runSetup(ctx, []string{"-webhook-url", "https://h.example.org", "-manifest", filepath.Join("..", "..", "app.yml"), "-o", filepath.Join(dir, "c.yml")}, &bytes.Buffer{}, &bytes.Buffer{}, listen)
	if err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("runSetup: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}
