package app_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
)

// These tests attack the server serve runs (app.NewServer) on loopback with raw TCP, as
// an outsider would, and send GitHub's signed deliveries from the same address meanwhile.

// chunk is the room a body takes as its bytes arrive (the app's bodyChunk): what a stalled
// connection holds at most.
const chunk = 32 << 10

// attack opens a connection that announces announce bytes of an unsigned body (its
// signature well formed, but wrong) and sends send of them as fast as the server reads,
// then stalls; it returns once they are sent or the server hung up.
func attack(t *testing.T, addr string, announce, send int64) net.Conn {
	t.Helper()
	c := openPost(t, addr, announce, "")
	buf := make([]byte, 1<<20)
	for sent := int64(0); sent < send; {
		n := min(int64(len(buf)), send-sent)
		if _, err := c.Write(buf[:n]); err != nil {
			return c // dropped: the server hung up
		}
		sent += n
	}
	return c
}

// startStalling sends the headers of a signed delivery and the first bytes of its body,
// as a slow network would, and returns the connection; the rest never comes.
func startStalling(t *testing.T, addr string, d fakegithub.Delivery, secret []byte) net.Conn {
	t.Helper()
	req, err := d.Request("http://"+addr+"/api/github/hook", secret)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var head strings.Builder
	fmt.Fprintf(&head, "POST /api/github/hook HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", addr, len(d.Body))
	for k, vs := range req.Header {
		fmt.Fprintf(&head, "%s: %s\r\n", k, vs[0])
	}
	if _, err := fmt.Fprintf(c, "%s\r\n%s", head.String(), d.Body[:64]); err != nil {
		t.Fatal(err)
	}
	return c
}

// roundPosted reports whether issue 42 shows the round of CLR-42-001.
func roundPosted(h interface{ Transcript(string, int) string }) bool {
	return strings.Contains(h.Transcript(repo, 42), "CLR-42-001")
}

// TestStalledConnectionsHoldNextToNothingAndGitHubStillGetsIn: the issue's attack, three
// connections announcing 25, 25 and 14 MiB and sending nothing, plus sixty more: they hold
// a chunk each, and a signed delivery sent meanwhile from the same address is taken and run.
func TestStalledConnectionsHoldNextToNothingAndGitHubStillGetsIn(t *testing.T) {
	h := newHarness(t)
	addr := listenAndServe(t, app.NewServer(h.Config, h.App.Handler))

	// Without an attack, a delivery is taken (the guard).
	h.Fake.OpenIssue(repo, 43, "Another", "maria")
	d0, _ := h.Fake.Comment(repo, 43, "coder-agent", "/clarify @maria Which cache?")
	if status, err := fakegithub.Send(context.Background(), &http.Client{}, "http://"+addr+"/api/github/hook", h.Secret, d0); err != nil {
		t.Fatalf("a delivery with no attack: %d, %v", status, err)
	}

	var conns int64
	for _, mib := range []int64{25, 25, 14} {
		openPost(t, addr, mib<<20, "")
		conns++
	}
	for range 60 {
		openPost(t, addr, 25<<20, `{"action":`)
		conns++
	}
	waitFor(t, "every stalled connection to begin its body", func() bool { return h.App.Bodies.Held() == conns*chunk })

	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	status, err := fakegithub.Send(context.Background(), &http.Client{}, "http://"+addr+"/api/github/hook", h.Secret, d)
	h.App.Scheduler.Wait()
	taken := 0
	if err == nil && roundPosted(h.Fake) {
		taken = 1
	}
	t.Logf("during the attack: %d stalled connections held %d KiB of the %d MiB budget; signed deliveries taken: %d of 1 (status %d)",
		conns, h.App.Bodies.Held()>>10, h.App.Bodies.Max()>>20, taken, status)
	if taken != 1 {
		t.Fatalf("a signed delivery sent during the attack was not taken and run: status %d, %v", status, err)
	}
}

// memoryPeak samples the heap until stop is closed and returns the most it saw in use.
func memoryPeak(stop <-chan struct{}) func() uint64 {
	var peak uint64
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	return func() uint64 { wg.Wait(); return peak }
}

// peakRSS is the process's resident set at its highest (Linux), 0 where unknown.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb uint64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}

// TestFastUnsignedBodiesAreDroppedForGitHubAndMemoryStaysBounded: twenty clients each send
// 20 MiB of a 25 MiB body as fast as they can. The bytes held for unverified bodies never
// pass the budget, the heap stays within a few hundred MiB, and a signed delivery sent
// meanwhile is taken: bodies past their grace are dropped to make room for it, the least
// ahead of its pace first.
func TestFastUnsignedBodiesAreDroppedForGitHubAndMemoryStaysBounded(t *testing.T) {
	h := newHarness(t)
	h.App.Bodies.Grace = 200 * time.Millisecond
	addr := listenAndServe(t, app.NewServer(h.Config, h.App.Handler))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peak := memoryPeak(stop)

	var attackers sync.WaitGroup
	for range 20 {
		attackers.Go(func() { attack(t, addr, 25<<20, 20<<20) })
	}
	attackers.Wait()
	// Bodies within their grace are never dropped; past it, the one least ahead of its
	// pace goes first.
	time.Sleep(h.App.Bodies.Grace)
	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	status, err := fakegithub.Send(context.Background(), &http.Client{}, "http://"+addr+"/api/github/hook", h.Secret, d)
	h.App.Scheduler.Wait()
	close(stop)
	heap := peak()

	t.Logf("20 clients × 20 MiB of 25 MiB: unverified bytes held at most %d MiB (budget %d MiB), %d bodies dropped; "+
		"heap in use %d MiB before, %d MiB at its peak; peak RSS of the test process %d MiB; signed delivery: status %d",
		h.App.Bodies.Peak()>>20, h.App.Bodies.Max()>>20, h.App.Bodies.Dropped(), before.HeapInuse>>20, heap>>20, peakRSS()>>20, status)
	if err != nil || !roundPosted(h.Fake) {
		t.Fatalf("a signed delivery sent during the attack was not taken and run: status %d, %v", status, err)
	}
	if h.App.Bodies.Peak() > h.App.Bodies.Max() {
		t.Errorf("held %d bytes of unverified bodies at once; the budget is %d", h.App.Bodies.Peak(), h.App.Bodies.Max())
	}
	if heap > 384<<20 {
		t.Errorf("the heap reached %d MiB under the attack: unverified bodies are not bounded", heap>>20)
	}
}

// TestADeliveryDroppedDuringAnAttackIsRedeliveredAndTaken: a signed delivery whose body
// stalled past its grace is the one dropped when fast senders spend the budget; it is
// answered 503, GitHub logs it, and the app's redelivery asks for it again and takes it.
func TestADeliveryDroppedDuringAnAttackIsRedeliveredAndTaken(t *testing.T) {
	h := newHarness(t)
	// A short grace, and a pace so low that the stalled delivery is dropped for room, not
	// cut off for its pace.
	h.App.Bodies.Grace, h.App.Bodies.MinRate = 200*time.Millisecond, 1
	addr := listenAndServe(t, app.NewServer(h.Config, h.App.Handler))

	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	slow := startStalling(t, addr, d, h.Secret)
	waitFor(t, "the slow delivery to begin its body", func() bool { return h.App.Bodies.Held() > 0 })
	time.Sleep(h.App.Bodies.Grace) // past its grace, nothing more arrived: behind its pace
	var attackers []net.Conn
	for range 3 {
		attackers = append(attackers, attack(t, addr, 25<<20, 22<<20))
	}
	resp := readResponse(t, slow)
	h.Fake.RecordDelivery(d, resp.StatusCode, false)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the slow delivery was answered %d (Retry-After %q), want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	for _, c := range attackers {
		c.Close()
	}
	waitFor(t, "the attack's room to be given back", func() bool { return h.App.Bodies.Held() == 0 })

	stats, err := h.Redeliver(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dropped during the attack: 1; redelivery afterwards: %+v; taken: %v", stats, roundPosted(h.Fake))
	if stats.Asked != 1 || !roundPosted(h.Fake) {
		t.Fatalf("the delivery dropped during the attack was not redelivered and taken (redelivery %+v)", stats)
	}
}

// TestOneClientsRefusalsAreLoggedOnceAnInterval: a client hammering the webhook with
// unsigned deliveries gets each refused, and the log one line for the lot, not one each.
func TestOneClientsRefusalsAreLoggedOnceAnInterval(t *testing.T) {
	h := newHarness(t)
	var logs testenv.Buffer
	a, err := app.NewApp(h.Config, app.NewLogger(&logs, "info"), h.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	addr := listenAndServe(t, app.NewServer(h.Config, a.Handler))
	const requests = 200
	refused := 0
	for range requests {
		resp, err := http.Post("http://"+addr+"/api/github/hook", "application/json", strings.NewReader(`{"action":"created"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			refused++
		}
	}
	lines := strings.Count(logs.String(), "Refused a delivery")
	t.Logf("%d unsigned requests from one client: %d refused, %d log lines", requests, refused, lines)
	if refused != requests || lines != 1 {
		t.Errorf("%d of %d refused with %d log lines; want all refused, one line", refused, requests, lines)
	}
}

// TestAttackersOnPaceCannotPushOutADeliveryInFlight: sixty-three bodies, each sent a MiB
// ahead of its pace, spend the budget while a signed delivery's headers have come and its
// body has not yet (it holds room, nothing arrived). A newcomer then needs room: it is
// refused, and the delivery, still within its grace, is not dropped; its body comes and it
// is taken. Ranked by bytes a second, the delivery (none yet) was the one dropped.
func TestAttackersOnPaceCannotPushOutADeliveryInFlight(t *testing.T) {
	h := newHarness(t)
	addr := listenAndServe(t, app.NewServer(h.Config, h.App.Handler))

	const each = 1<<20 - chunk // held: those bytes, plus the chunk waiting for the next
	var attackers sync.WaitGroup
	for range 63 {
		attackers.Go(func() { attack(t, addr, 25<<20, each) })
	}
	attackers.Wait()
	waitFor(t, "the attackers to hold 63 MiB", func() bool { return h.App.Bodies.Held() == 63<<20 })

	d, _ := h.Fake.Comment(repo, 42, "coder-agent", "/clarify @maria Which database?")
	delivery := startStalling(t, addr, d, h.Secret)
	waitFor(t, "the delivery to hold room", func() bool { return h.App.Bodies.Held() > 63<<20 })
	newcomer := attack(t, addr, 25<<20, 2<<20)
	// Until the newcomer fills the budget, what is held is the most ever held.
	waitFor(t, "the newcomer to be refused or make room", func() bool {
		return h.App.Bodies.Dropped() > 0 || h.App.Bodies.Held() < h.App.Bodies.Peak()
	})

	_, _ = delivery.Write(d.Body[64:]) // a dropped delivery's answer is already waiting
	resp := readResponse(t, delivery)
	h.App.Scheduler.Wait()
	if resp.StatusCode != http.StatusOK || !roundPosted(h.Fake) {
		t.Fatalf("the delivery in flight was answered %d (round posted: %v); want it taken", resp.StatusCode, roundPosted(h.Fake))
	}
	refused := readResponse(t, newcomer).StatusCode
	t.Logf("63 bodies a MiB ahead of their pace, a newcomer needing room: newcomer answered %d; the delivery in flight "+
		"answered %d, its round posted: %v; bodies dropped: %d", refused, resp.StatusCode, roundPosted(h.Fake), h.App.Bodies.Dropped())
	if refused != http.StatusServiceUnavailable {
		t.Errorf("the newcomer was answered %d; with every other body within its grace, want 503", refused)
	}
}
