package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
)

// TestReplicasShareOneRedis runs three `bot serve` processes, built from this package,
// behind one in-memory GitHub and one Redis, as a deployment behind a load balancer would.
// Every delivery is sent twice (same GUID) to two replicas picked at random; one issue's
// deliveries go in order, the issues' interleaved. Every clarification must end right, with
// no duplicate comment, the thread in comment order. Then a replica is killed (SIGKILL)
// halfway through a second batch: nothing may be lost.
func TestReplicasShareOneRedis(t *testing.T) {
	redis := redistest.Start(t)
	w := newReplicaWorld(t, redis.URL)
	for i := range 3 {
		w.start(i)
	}

	// 20 issues, 5 comments each, each delivery sent twice: 200 deliveries.
	begin := time.Now()
	w.play(1, 20, 0)
	sentIn := time.Since(begin)
	w.settle(1, 20, 60*time.Second)
	t.Logf("3 replicas, 20 issues: %d deliveries (each of 100 comments twice) sent over %v, all settled %v after the last; %s",
		w.sent.Load(), sentIn.Round(time.Millisecond), (time.Since(begin) - sentIn).Round(time.Millisecond), w.figures())

	// 10 more issues; replica 0 is killed halfway, in the middle of a run.
	w.resetFigures()
	begin = time.Now()
	w.play(21, 30, 25)
	sentIn = time.Since(begin)
	w.settle(21, 30, 90*time.Second)
	settledIn := time.Since(begin) - sentIn
	// The run the kill cut off was sent to another replica too, which stood by: once the
	// dead replica's claim runs out, that replica runs it.
	for deadline := time.Now().Add(30 * time.Second); w.count("The other run of the delivery failed or vanished") == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no surviving replica took over the delivery the killed one had in hand")
		}
	}
	t.Logf("replica 0 killed halfway, 10 issues: %d deliveries for 50 comments (%d refused by the dead replica) sent over %v, "+
		"all settled %v and the cut-off run taken over %v after the last; %s",
		w.sent.Load(), w.refused.Load(), sentIn.Round(time.Millisecond), settledIn.Round(time.Millisecond),
		(time.Since(begin) - sentIn).Round(time.Millisecond), w.figures())

	// What is left must be still: the survivors drain and stop, and then nothing changed.
	before := w.fake.Fingerprint()
	w.stop(1)
	w.stop(2)
	if after := w.fake.Fingerprint(); after != before {
		t.Error("the issues changed after every clarification had settled")
	}
	w.check(1, 30)
}

// The app's identity in the in-memory GitHub.
const (
	replicaAppID = 4242
	replicaRepo  = "octo/widgets"
)

// replicaWorld is the in-memory GitHub served on loopback, the bot binary, and its
// replicas.
type replicaWorld struct {
	t      *testing.T
	fake   *fakegithub.Server
	secret []byte
	bin    string
	dir    string
	redis  string
	api    string
	// sweepEvery is the replicas' clarify.sweep_interval.
	sweepEvery string
	client     *http.Client
	// ledgerKey is the key the replicas draw from the app's private key.
	ledgerKey []byte
	mu        sync.Mutex
	procs     [3]*replicaProc
	// Deliveries sent since the last reset: the scenario's (both copies), GitHub's of the
	// app's own writes, the redeliveries the app asked for; and those refused by a dead
	// replica.
	sent, own, redelivered, refused atomic.Int64
	// logMark is where each replica's log was when the figures were last reset.
	logMark [3]int
}

type replicaProc struct {
	cmd  *exec.Cmd
	url  string
	log  string
	done chan error
	dead atomic.Bool
}

func newReplicaWorld(t *testing.T, redisURL string) *replicaWorld {
	t.Helper()
	return buildReplicaWorld(t, redisURL, "2s", func(fake *fakegithub.Server) {
		fake.AddInstallation(1, "octo", replicaRepo)
		fake.AddUser("maria", "User")
		fake.SetPermission(replicaRepo, "maria", "write")
		fake.AddUser("coder-agent", "Bot")
		for n := 1; n <= 30; n++ {
			fake.OpenIssue(replicaRepo, n, fmt.Sprintf("Rate-limit endpoint %d", n), "maria")
		}
	})
}

// buildReplicaWorld serves the in-memory GitHub that populate fills, builds the bot, and
// readies the replicas' settings (a sweep every sweepEvery).
func buildReplicaWorld(t *testing.T, redisURL, sweepEvery string, populate func(*fakegithub.Server)) *replicaWorld {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("replicas-webhook-secret-of-at-least-32-bytes")
	fake := fakegithub.New(fakegithub.Options{AppID: replicaAppID, AppSlug: "clarify", WebhookSecret: secret,
		AppPublicKey: &key.PublicKey, Now: time.Now}) // the replicas' clock is the real one
	gh := httptest.NewServer(fake)
	t.Cleanup(gh.Close)
	populate(fake)
	dir := t.TempDir()
	w := &replicaWorld{t: t, fake: fake, secret: secret, dir: dir, redis: redisURL, api: gh.URL, sweepEvery: sweepEvery,
		client: &http.Client{Timeout: 10 * time.Second}}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(filepath.Join(dir, "app.pem"), keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	var cfg app.Config
	cfg.Github.App.PrivateKey = string(keyPEM)
	w.ledgerKey = cfg.LedgerKeyBytes()
	w.bin = filepath.Join(dir, "bot")
	build := exec.Command("go", "build", "-o", w.bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		for _, p := range w.procs {
			if p != nil && !p.dead.Load() {
				_ = p.cmd.Process.Kill()
				<-p.done
			}
		}
		if t.Failed() {
			for i, p := range w.procs {
				if p != nil {
					b, _ := os.ReadFile(p.log)
					t.Logf("replica %d's last log lines:\n%s", i, tail(string(b), 30))
				}
			}
		}
	})
	return w
}

// start starts replica i and waits until it is ready.
func (w *replicaWorld) start(i int) {
	t := w.t
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := fmt.Sprintf(`server:
  address: 127.0.0.1
  port: %d
github:
  v3_api_url: %s/
  v4_api_url: %s/graphql
  app:
    integration_id: %d
    webhook_secret: %q
    private_key_file: %s
clarify:
  app_slug: clarify
  redis_url: %s
  sweep_interval: %s
  writes_per_minute: 1000
  writes_per_hour: 20000
  handler_timeout: 30s
`, port, w.api, w.api, replicaAppID, w.secret, filepath.Join(w.dir, "app.pem"), w.redis, w.sweepEvery)
	path := filepath.Join(w.dir, fmt.Sprintf("replica-%d.yml", i))
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(w.dir, fmt.Sprintf("replica-%d.log", i))
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd := exec.Command(w.bin, "serve", "-c", path)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The test's own environment must not reach the replicas' settings.
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GITHUB_") || strings.HasPrefix(kv, "CLARIFY_") || strings.HasPrefix(kv, "SERVER_") ||
			strings.HasPrefix(kv, "REDIS_URL=")
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &replicaProc{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), log: logPath, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	w.mu.Lock()
	w.procs[i] = p
	w.mu.Unlock()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := w.client.Get(p.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-p.done:
			p.dead.Store(true)
			b, _ := os.ReadFile(logPath)
			t.Fatalf("replica %d exited before it was ready (%v):\n%s", i, err, tail(string(b), 20))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %d was not ready within 30s", i)
		}
	}
}

// kill kills replica i at once, as a crash or an OOM kill would.
func (w *replicaWorld) kill(i int) {
	p := w.procs[i]
	p.dead.Store(true)
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop stops replica i as an orchestrator would (SIGTERM), and waits for its drain.
func (w *replicaWorld) stop(i int) {
	p := w.procs[i]
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		p.dead.Store(true)
		if err != nil {
			w.t.Errorf("replica %d stopped with %v", i, err)
		}
	case <-time.After(40 * time.Second):
		w.t.Errorf("replica %d did not stop within 40s of SIGTERM", i)
	}
}

// send delivers d to replica i as GitHub would, and records the attempt in GitHub's
// delivery log (a dead replica's as failed, for the app's redelivery to find).
func (w *replicaWorld) send(d fakegithub.Delivery, i int, redelivery bool) {
	p := w.procs[i]
	status, err := fakegithub.Send(context.Background(), w.client, p.url+"/api/github/hook", w.secret, d)
	if err != nil && status == 0 {
		if !p.dead.Load() {
			w.t.Errorf("replica %d is up, yet the delivery did not reach it: %v", i, err)
		}
		w.refused.Add(1)
	} else if err != nil {
		w.t.Errorf("replica %d answered %d to a delivery: %v", i, status, err)
	}
	w.fake.RecordDelivery(d, status, redelivery)
}

// live returns the replicas still running.
func (w *replicaWorld) live() []int {
	var out []int
	for i, p := range w.procs {
		if p != nil && !p.dead.Load() {
			out = append(out, i)
		}
	}
	return out
}

// scenario is what each issue sees, in order: an ask by a bot, the maintainer's answer, a
// follow-up, its answer, and the resolve.
func scenario(n int) []struct{ author, body string } {
	id := clarify.FormatID(n, 1)
	return []struct{ author, body string }{
		{"coder-agent", fmt.Sprintf("/clarify @maria Endpoint %d: should the limit apply per API key or per client IP?\nOptions:\na) per API key\nb) per client IP\nFallback: a", n)},
		{"maria", fmt.Sprintf("Per API key for endpoint %d: anonymous calls are blocked at the gateway.", n)},
		{"coder-agent", fmt.Sprintf("/clarify followup %s Which limit per key for endpoint %d: 100 or 1000 a minute?", id, n)},
		{"maria", fmt.Sprintf("1000 a minute for endpoint %d, bursts of 100.", n)},
		{"coder-agent", fmt.Sprintf("/clarify resolve %s Endpoint %d: per key, 1000/min, bursts of 100.", id, n)},
	}
}

// play plays the scenario in issues from..to: four senders, each owning some issues, go
// through them in a random interleaving, each comment's delivery sent to one replica
// picked at random and then to another. GitHub's deliveries of the app's own writes and
// the redeliveries the app asks for are sent meanwhile, to a live replica.
//
// With killAt > 0, replica 0 is killed (SIGKILL) the moment it has accepted a delivery
// once killAt comments were made: that run is cut off, and its twin, sent next to another
// replica, must take it over. After that, a comment whose first pick is the dead replica
// is not sent again: GitHub's attempt failed, and only the app's redelivery brings it back.
func (w *replicaWorld) play(from, to, killAt int) {
	var wg sync.WaitGroup
	var comments atomic.Int64
	var killOnce sync.Once
	stopPump := w.pumping()
	for s := range 4 {
		wg.Go(func() {
			rng := mrand.New(mrand.NewPCG(uint64(from), uint64(s)))
			next := map[int]int{}
			var mine []int
			for n := from + s; n <= to; n += 4 {
				mine = append(mine, n)
			}
			for len(mine) > 0 {
				k := rng.IntN(len(mine))
				n := mine[k]
				step := scenario(n)[next[n]]
				next[n]++
				if next[n] == 5 {
					mine = slices.Delete(mine, k, k+1)
				}
				d, _ := w.fake.Comment(replicaRepo, n, step.author, step.body)
				made := comments.Add(1)
				first := rng.IntN(3)
				second := (first + 1 + rng.IntN(2)) % 3
				wasDead := w.procs[first].dead.Load()
				w.sent.Add(1)
				w.send(d, first, false)
				// A command, whose run takes some requests: the kill cuts it off midway.
				if killAt > 0 && made >= int64(killAt) && first == 0 && step.author == "coder-agent" {
					killOnce.Do(func() { w.kill(0) })
				}
				if !wasDead {
					w.sent.Add(1)
					w.send(d, second, false)
				}
				time.Sleep(time.Duration(20+rng.IntN(130)) * time.Millisecond)
			}
		})
	}
	wg.Wait()
	stopPump()
}

// pumping pumps (pump) until the function it returns is called.
func (w *replicaWorld) pumping() (stop func()) {
	stopPump := make(chan struct{})
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		w.pump(stopPump)
	}()
	return func() {
		close(stopPump)
		<-pumped
	}
}

// pump sends, until stop, what GitHub would send besides the scenario: the deliveries of
// the app's own writes (which it must ignore) and the redeliveries it asked for.
func (w *replicaWorld) pump(stop <-chan struct{}) {
	for {
		for _, d := range w.fake.TakeOutbox() {
			if live := w.live(); len(live) > 0 {
				w.own.Add(1)
				w.send(d, live[mrand.IntN(len(live))], false)
			}
		}
		for _, d := range w.fake.TakeRedeliveries() {
			if live := w.live(); len(live) > 0 {
				w.redelivered.Add(1)
				w.send(d, live[mrand.IntN(len(live))], true)
			}
		}
		select {
		case <-stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// settle waits until every issue from..to is resolved with its labels off, pumping
// GitHub's own deliveries meanwhile; then checks them.
func (w *replicaWorld) settle(from, to int, within time.Duration) {
	w.t.Helper()
	defer w.pumping()()
	deadline := time.Now().Add(within)
	for {
		pending := w.unsettled(from, to)
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("after %v, issues %v have not settled", within, pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.check(from, to)
}

// unsettled lists the issues whose clarification is not resolved yet, or still labelled.
func (w *replicaWorld) unsettled(from, to int) []int {
	var out []int
	for n := from; n <= to; n++ {
		c, ok := w.clarification(n)
		if !ok || c.Status != clarify.Resolved || len(w.fake.IssueLabels(replicaRepo, n)) > 0 {
			out = append(out, n)
		}
	}
	return out
}

// clarification reads issue n's clarification from the app's status comment, as the
// app does.
func (w *replicaWorld) clarification(n int) (clarify.Clarification, bool) {
	return w.clarificationIn(replicaRepo, n)
}

// clarificationIn reads the first clarification of issue n of repo from the app's status
// comment.
func (w *replicaWorld) clarificationIn(repo string, n int) (clarify.Clarification, bool) {
	owner, name, _ := strings.Cut(repo, "/")
	key := ledger.IssueLedgerKey(w.ledgerKey, owner, name, n)
	for _, c := range w.fake.Comments(repo, n) {
		if c.User == "clarify[bot]" && render.IsStatus(c.Body) {
			l, err := render.DecodeLedger(c.Body, key)
			if err != nil {
				return clarify.Clarification{}, false
			}
			return l.Find(clarify.FormatID(n, 1))
		}
	}
	return clarify.Clarification{}, false
}

// check asserts the end state of issues from..to: resolved with the thread in comment
// order, no label, and every message of the app's once.
func (w *replicaWorld) check(from, to int) {
	t := w.t
	t.Helper()
	for n := from; n <= to; n++ {
		c, ok := w.clarification(n)
		if !ok {
			t.Errorf("#%d: no readable ledger", n)
			continue
		}
		var kinds []string
		var ids []int64
		for _, e := range c.Thread {
			kinds = append(kinds, string(e.Kind))
			if e.CommentID != 0 {
				ids = append(ids, e.CommentID)
			}
		}
		if c.Status != clarify.Resolved || c.Round != 2 || fmt.Sprint(kinds) != "[question answer question answer resolution]" {
			t.Errorf("#%d: %s round %d, thread %v; want resolved in round 2 after question, answer, question, answer", n, c.Status, c.Round, kinds)
		}
		if !slices.IsSorted(ids) {
			t.Errorf("#%d: thread out of the comments' order: %v", n, ids)
		}
		if labels := w.fake.IssueLabels(replicaRepo, n); len(labels) > 0 {
			t.Errorf("#%d: labels %v left on a settled issue", n, labels)
		}
		w.checkPostedOnce(n)
	}
	for _, r := range w.fake.Requests() {
		if r.Unhandled {
			t.Errorf("a replica called a route the in-memory GitHub does not serve: %s %s", r.Method, r.Path)
		}
	}
}

// checkPostedOnce asserts that the app posted nothing twice in issue n, and one status
// comment and each round's message once.
func (w *replicaWorld) checkPostedOnce(n int) {
	t := w.t
	t.Helper()
	seen := map[string]bool{}
	statuses, round1, round2 := 0, 0, 0
	for _, cm := range w.fake.Comments(replicaRepo, n) {
		if cm.User != "clarify[bot]" {
			continue
		}
		if seen[cm.Body] {
			t.Errorf("#%d: the app posted twice:\n%s", n, cm.Body)
		}
		seen[cm.Body] = true
		if render.IsStatus(cm.Body) {
			statuses++
		}
		if strings.Contains(cm.Body, clarify.FormatID(n, 1)+" · round 1/5") {
			round1++
		}
		if strings.Contains(cm.Body, clarify.FormatID(n, 1)+" · round 2/5") {
			round2++
		}
	}
	if statuses != 1 || round1 != 1 || round2 != 1 {
		t.Errorf("#%d: %d status comments, round 1 shown %d times, round 2 %d times; want each once", n, statuses, round1, round2)
	}
}

// count counts a message in the replicas' logs since the last reset.
func (w *replicaWorld) count(msg string) int {
	n := 0
	for i, p := range w.procs {
		if p == nil {
			continue
		}
		b, _ := os.ReadFile(p.log)
		n += strings.Count(string(b[min(w.logMark[i], len(b)):]), msg)
	}
	return n
}

// figures counts, from the replicas' logs since the last reset, what they did; first it
// lets the replicas standing by for a twin see that its run ended (they look every second).
func (w *replicaWorld) figures() string {
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		ended := w.count("The other run of the delivery succeeded") + w.count("The other run of the delivery failed or vanished")
		if w.count("Duplicate delivery: another run has it in hand") <= ended {
			break
		}
	}
	count := map[string]int{}
	sweeps := make([]int, 3)
	for i, p := range w.procs {
		if p == nil {
			continue
		}
		b, _ := os.ReadFile(p.log)
		s := string(b)
		if w.logMark[i] <= len(s) {
			s = s[w.logMark[i]:]
		}
		count["received"] += strings.Count(s, "Received webhook event")
		count["ran already"] += strings.Count(s, "Duplicate delivery: it already ran")
		count["stood by"] += strings.Count(s, "Duplicate delivery: another run has it in hand")
		count["stood down"] += strings.Count(s, "The other run of the delivery succeeded; not run here")
		count["taken over"] += strings.Count(s, "The other run of the delivery failed or vanished")
		count["redis outages"] += strings.Count(s, "REDIS UNREACHABLE")
		sweeps[i] = strings.Count(s, "Sweep finished")
	}
	return fmt.Sprintf("also sent: %d deliveries of the app's own writes, %d redeliveries the app asked for; the replicas received %d; "+
		"duplicates not run: %d (%d that had run, %d whose first run was under way and succeeded); stood by and took over a vanished run: %d; "+
		"sweeps per replica %v; Redis outages %d",
		w.own.Load(), w.redelivered.Load(), count["received"], count["ran already"]+count["stood down"], count["ran already"], count["stood down"],
		count["taken over"], sweeps, count["redis outages"])
}

func (w *replicaWorld) resetFigures() {
	for _, c := range []*atomic.Int64{&w.sent, &w.own, &w.redelivered, &w.refused} {
		c.Store(0)
	}
	for i, p := range w.procs {
		if p == nil {
			continue
		}
		b, _ := os.ReadFile(p.log)
		w.logMark[i] = len(b)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
