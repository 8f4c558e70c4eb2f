package action_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/action"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/wire"
)

const (
	repo      = "octo/widgets"
	ledgerKey = "test-ledger-key-of-forty-characters-long!"
)

// bench is a repository on the in-memory GitHub with a workflow's token, and a runner of
// `bot action` that starts from nothing on every run, as a fresh process does: only the
// event file and the environment go in.
type bench struct {
	t     *testing.T
	fake  *fakegithub.Server
	url   string
	token string
	dir   string
	runs  int
	// settle is the Options.SettleDelay of every run (negative: none).
	settle time.Duration
	// summary is the GITHUB_STEP_SUMMARY file.
	summary string
	hooks   *hooked
	// checks is Env.Checks of every run (CLARIFY_CHECKS).
	checks bool
}

func newBench(t *testing.T) *bench {
	t.Helper()
	fake := fakegithub.New(fakegithub.Options{})
	fake.AddInstallation(1, "octo", repo)
	fake.AddUser("maria", "User")
	fake.SetPermission(repo, "maria", "write")
	fake.AddUser("coder-agent", "Bot")
	fake.AddUser("drive-by", "User")
	fake.SetPermission(repo, "drive-by", "read")
	fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	hooks := &hooked{next: fake}
	srv := httptest.NewServer(hooks)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	return &bench{t: t, fake: fake, url: srv.URL, token: fake.WorkflowToken(repo), dir: dir, settle: -1,
		summary: filepath.Join(dir, "summary.md"), hooks: hooks}
}

// hooked lets a test hold a request on its way to the in-memory GitHub, or hear that one
// was answered: how two runs are made to interleave exactly so.
type hooked struct {
	next          http.Handler
	mu            sync.Mutex
	before, after func(token string, r *http.Request)
}

func (h *hooked) set(before, after func(token string, r *http.Request)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.before, h.after = before, after
}

// ServeHTTP runs the hooks around the in-memory GitHub.
func (h *hooked) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	before, after := h.before, h.after
	h.mu.Unlock()
	_, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if before != nil {
		before(token, r)
	}
	h.next.ServeHTTP(w, r)
	if after != nil {
		after(token, r)
	}
}

// eventFile writes a delivery's payload as the runner's event file: the webhook payload,
// without the installation a workflow's payload does not carry, changed by edits.
func (b *bench) eventFile(d fakegithub.Delivery, edits ...func(payload map[string]any)) string {
	b.t.Helper()
	var p map[string]any
	if err := json.Unmarshal(d.Body, &p); err != nil {
		b.t.Fatal(err)
	}
	delete(p, "installation")
	for _, edit := range edits {
		edit(p)
	}
	return b.writeEvent(p)
}

func (b *bench) writeEvent(p any) string {
	b.t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		b.t.Fatal(err)
	}
	b.runs++
	path := filepath.Join(b.dir, "event-"+strconv.Itoa(b.runs)+".json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		b.t.Fatal(err)
	}
	return path
}

// env is the step's environment for one run.
func (b *bench) env(event, path string) action.Env {
	b.runs++
	return action.Env{EventName: event, EventPath: path, Repository: repo, APIURL: b.url, Token: b.token,
		LedgerKey: ledgerKey, StepSummary: b.summary, RunID: strconv.Itoa(9000 + b.runs), RunAttempt: "1",
		RunNumber: b.runs, BotSlug: wire.ActionsSlug, Budget: action.DefaultBudget, Checks: b.checks}
}

// result is one run's exit code, stdout, log and requests.
type result struct {
	code     int
	stdout   string
	logs     string
	requests int
	took     time.Duration
}

func (b *bench) runEnv(env action.Env) result {
	b.t.Helper()
	var out, logs bytes.Buffer
	before := len(b.fake.Requests())
	start := time.Now()
	code := action.Run(context.Background(), env, action.Options{Now: b.fake.Now, SettleDelay: b.settle,
		Retry: ghtransport.RetryOptions{MaxWait: time.Millisecond}, PaceMinute: 50 * time.Millisecond, Stdout: &out, Stderr: &logs})
	r := result{code: code, stdout: out.String(), logs: logs.String(), requests: len(b.fake.Requests()) - before, took: time.Since(start)}
	if testing.Verbose() {
		var routes []string
		for _, q := range b.fake.Requests()[before:] {
			routes = append(routes, q.Method+" "+q.Path)
		}
		b.t.Logf("run %s: exit %d, %d requests, %s\n%s%s\n%s", env.EventName, code, r.requests, r.took,
			strings.Join(routes, "\n"), out.String(), logs.String())
	}
	return r
}

func (b *bench) run(event, path string) result { return b.runEnv(b.env(event, path)) }

// ok runs an event and fails the test unless it exits 0.
func (b *bench) ok(event, path string) result {
	b.t.Helper()
	r := b.run(event, path)
	if r.code != 0 {
		b.t.Fatalf("bot action on %s exited %d:\n%s", event, r.code, r.stdout)
	}
	return r
}

// comment has author comment in issue 42 and runs the workflow for it.
func (b *bench) comment(author, body string) (int64, result) {
	b.t.Helper()
	d, id := b.fake.Comment(repo, 42, author, body)
	return id, b.ok("issue_comment", b.eventFile(d))
}

// commentOnly has author comment without a run: its run was cancelled or dropped.
func (b *bench) commentOnly(author, body string) fakegithub.Delivery {
	d, _ := b.fake.Comment(repo, 42, author, body)
	return d
}

func (b *bench) schedule() result {
	b.t.Helper()
	return b.ok("schedule", b.writeEvent(map[string]string{"schedule": "*/15 * * * *"}))
}

// ledger decodes issue n's ledger from github-actions[bot]'s status comment: the first
// that verifies under Clarify's key (other workflows write as that account too).
func (b *bench) ledger(n int) clarify.Ledger {
	b.t.Helper()
	var errs []error
	for _, c := range b.fake.Comments(repo, n) {
		if c.User == fakegithub.ActionsBotLogin && render.IsStatus(c.Body) {
			l, err := render.DecodeLedger(c.Body, ledger.IssueLedgerKey([]byte(ledgerKey), "octo", "widgets", n))
			if err == nil {
				return l
			}
			errs = append(errs, err)
		}
	}
	b.t.Fatalf("no status comment by %s in #%d that verifies (%v)", fakegithub.ActionsBotLogin, n, errs)
	return clarify.Ledger{}
}

func (b *bench) clar(id string) clarify.Clarification {
	b.t.Helper()
	c, ok := b.ledger(42).Find(id)
	if !ok {
		b.t.Fatalf("%s not in the ledger", id)
	}
	return c
}

// botComments counts github-actions[bot]'s comments in #42 holding text.
func (b *bench) botComments(text string) int {
	n := 0
	for _, c := range b.fake.Comments(repo, 42) {
		if c.User == fakegithub.ActionsBotLogin && strings.Contains(c.Body, text) {
			n++
		}
	}
	return n
}

func (b *bench) labels() string { return strings.Join(b.fake.IssueLabels(repo, 42), ",") }

// within waits for ch to close, and fails the test rather than hang when it never does
// (the run it waits on took another way).
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("waited 30s for %s", what)
	}
}

// heldAtOnce runs the workflow runs of two comments at once, each with a token of its own,
// so that both read before either writes, and B's write lands before A's, which lands
// before B reads its write back: run A is held at its first request that held matches
// until run B has made one like it; B's is held until A is there; and B's next requests
// until A's has landed. The order comes from the requests, not from the machine's speed.
// Both runs must exit 0.
func (b *bench) heldAtOnce(held func(*http.Request) bool, dA, dB fakegithub.Delivery) {
	b.t.Helper()
	tokenA, tokenB := b.fake.WorkflowToken(repo), b.fake.WorkflowToken(repo)
	aThere, bDone, release, aLanded := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	var onceA, onceB, onceLanded sync.Once
	b.hooks.set(func(token string, r *http.Request) {
		switch {
		case token == tokenA && held(r):
			onceA.Do(func() { close(aThere); waitAtMost(release) })
		case token == tokenB && closed(bDone):
			waitAtMost(aLanded)
		case token == tokenB && held(r):
			waitAtMost(aThere)
		}
	}, func(token string, r *http.Request) {
		switch {
		case token == tokenB && held(r):
			onceB.Do(func() { close(bDone) })
		case token == tokenA && held(r) && closed(release):
			onceLanded.Do(func() { close(aLanded) })
		}
	})
	envA, envB := b.env("issue_comment", b.eventFile(dA)), b.env("issue_comment", b.eventFile(dB))
	envA.Token, envB.Token = tokenA, tokenB
	results := make(chan result, 2)
	go func() { results <- b.runEnv(envA) }()
	go func() { results <- b.runEnv(envB) }()
	within(b.t, bDone, "run B to make the request run A is held at")
	close(release)
	for range 2 {
		if r := <-results; r.code != 0 {
			b.t.Fatalf("a run exited %d: %s", r.code, r.stdout)
		}
	}
}

// waitAtMost waits for ch to close, or 30s: a run that took another way than the test
// expected then goes on, and the test's checks say what happened rather than hang.
func waitAtMost(ch chan struct{}) {
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
	}
}

// closed says whether ch is closed, without waiting.
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// statusID is the id of Clarify's status comment in issue n, or 0.
func (b *bench) statusID(n int) int64 {
	for _, c := range b.fake.Comments(repo, n) {
		if c.User == fakegithub.ActionsBotLogin && strings.Contains(c.Body, "clarify:status") {
			return c.ID
		}
	}
	return 0
}

// runBoth runs two workflow runs at once, and fails the test unless both exit 0.
func (b *bench) runBoth(a, c action.Env) {
	b.t.Helper()
	results := make(chan result, 2)
	go func() { results <- b.runEnv(a) }()
	go func() { results <- b.runEnv(c) }()
	for range 2 {
		if r := <-results; r.code != 0 {
			b.t.Fatalf("a run exited %d: %s", r.code, r.stdout)
		}
	}
}

// req matches a run's request: its token, method and path.
type req struct{ token, method, path string }

func (q req) is(token string, r *http.Request) bool {
	return token == q.token && r.Method == q.method && r.URL.Path == q.path
}

// hold keeps a request back until the signal until is given, once the signal when (if any)
// has been given; signal gives name when a request has been answered. Together they put
// the requests of runs at once in the order a race needs, whatever the machine's speed.
type (
	hold struct {
		req
		until, when string
	}
	signal struct {
		req
		name string
	}
)

// sequence installs holds and signals on the in-memory GitHub's hooks.
func (b *bench) sequence(holds []hold, signals []signal) {
	given := map[string]chan struct{}{}
	once := map[string]*sync.Once{}
	for _, s := range signals {
		given[s.name], once[s.name] = make(chan struct{}), &sync.Once{}
	}
	b.hooks.set(func(token string, r *http.Request) {
		for _, h := range holds {
			if h.is(token, r) && (h.when == "" || closed(given[h.when])) {
				waitAtMost(given[h.until])
			}
		}
	}, func(token string, r *http.Request) {
		for _, s := range signals {
			if s.is(token, r) {
				once[s.name].Do(func() { close(given[s.name]) })
			}
		}
	})
}
