package main

import (
	"fmt"
	mrand "math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// TestFleet runs what a fleet costs: three `bot serve` replicas on one Redis against the
// in-memory GitHub, many installations each with open clarifications, asked, answered or
// left to their deadlines (sla: 1m, the shortest a repository may set, on the real clock),
// with replica 0 killed (SIGKILL) halfway through the asks; once all is settled, the app is
// restarted (the two replicas left stopped, replica 0 started again on the same Redis). Every delivery goes to two replicas, as in TestReplicasShareOneRedis. It asserts
// what a user would check: every answer taken, every deadline's transition made, nothing
// posted twice; and prints each deadline's lateness, requests per active issue per idle
// minute, each replica's memory, Redis commands per second, and what the restarted app's
// first walk read.
//
// Its deadlines take real minutes, so it runs only when CLARIFY_FLEET says how big:
// "small" (10 installations, 50 clarifications, about 3 minutes) or "full" (200
// installations, 2,000 clarifications, about 4 minutes).
func TestFleet(t *testing.T) {
	size := fleetSizeOf(t)
	rs := redistest.Start(t)
	w := buildReplicaWorld(t, rs.URL, size.sweepEvery.String(), size.populate)
	rdb := redisClient(t, rs.URL)
	for i := range 3 {
		w.start(i)
	}
	f := &fleet{w: w, size: size, begin: time.Now(), rdb: rdb}
	cmds0 := redisCommands(t, rdb)
	f.play()
	playedAt := time.Now()
	f.settle()
	cmds1 := redisCommands(t, rdb)
	settled := time.Since(f.begin)
	mem := f.memory()

	lost, dups := f.check()
	early, late := f.lateness()
	t.Logf("fleet %s: %d installations, %d clarifications (%d answered, %d left to a fallback, %d to escalate), sla 1m, sweep every %v",
		size.name, size.installations, size.total(), size.count(kindAnswered), size.count(kindFallback), size.count(kindEscalate), size.sweepEvery)
	t.Logf("deliveries: %d sent (%d refused by the killed replica), %d of the app's own writes, %d redeliveries the app asked for; "+
		"%d deliveries whose first run vanished or failed run by the replica holding the second copy; all settled %v after the start, %v after the last comment",
		w.sent.Load(), w.refused.Load(), w.own.Load(), w.redelivered.Load(), w.count("The other run of the delivery failed or vanished"),
		settled.Round(time.Second), time.Since(playedAt).Round(time.Second))
	t.Logf("lateness of the stale ping (one SLA after the ask): %s", early)
	t.Logf("lateness of the fallback or escalation (two SLAs after the ask): %s", late)
	t.Logf("duplicates: %d; lost transitions: %d", dups, lost)
	t.Logf("sweeps: %s", f.sweeps())
	t.Logf("Redis: %d commands over %v, %.0f a second; memory %s (peak %s), keyspace %s",
		cmds1-cmds0, settled.Round(time.Second), float64(cmds1-cmds0)/settled.Seconds(),
		redisInfo(t, rdb, "memory", "used_memory_human"), redisInfo(t, rdb, "memory", "used_memory_peak_human"), redisInfo(t, rdb, "keyspace", "db0"))
	t.Logf("memory: %s", mem)

	f.idle()
	f.restartRead()
	for _, i := range w.live() {
		w.stop(i)
	}
	for _, r := range w.fake.Requests() {
		if r.Unhandled {
			t.Errorf("a replica called a route the in-memory GitHub does not serve: %s %s", r.Method, r.Path)
		}
	}
}

// What each clarification of the fleet is left to.
const (
	kindAnswered = iota // answered within the SLA, then resolved by its asker
	kindFallback        // never answered: stale, then resolved with its fallback
	kindEscalate        // never answered and no fallback: stale, then escalated
)

// fleetSize is how big a fleet run is.
type fleetSize struct {
	name string
	// installations each hold one repository with perInstallation issues, one
	// clarification each.
	installations, perInstallation int
	// spread is how long the asks take to come in, evenly; idle how long the idle
	// window at the end is.
	spread, idle time.Duration
	sweepEvery   time.Duration
}

// fleetSLA is the repositories' sla: the shortest a config may set.
const fleetSLA = time.Minute

func fleetSizeOf(t *testing.T) fleetSize {
	switch v := os.Getenv("CLARIFY_FLEET"); v {
	case "full":
		return fleetSize{name: v, installations: 200, perInstallation: 10, spread: 40 * time.Second, idle: time.Minute, sweepEvery: 10 * time.Second}
	case "small":
		return fleetSize{name: v, installations: 10, perInstallation: 5, spread: 10 * time.Second, idle: 30 * time.Second, sweepEvery: 10 * time.Second}
	case "":
		t.Skip("the fleet's deadlines take minutes of real time: CLARIFY_FLEET=small (about 3 minutes) or full (about 4) runs it")
	default:
		t.Fatalf("CLARIFY_FLEET=%q: want small or full", v)
	}
	return fleetSize{}
}

func (s fleetSize) total() int { return s.installations * s.perInstallation }

// kind says what clarification k (0-based) is left to: four in ten answered, three
// fall back, three escalate.
func (s fleetSize) kind(k int) int {
	switch r := k % 10; {
	case r < 4:
		return kindAnswered
	case r < 7:
		return kindFallback
	default:
		return kindEscalate
	}
}

func (s fleetSize) count(kind int) int {
	n := 0
	for k := range s.total() {
		if s.kind(k) == kind {
			n++
		}
	}
	return n
}

// issue is where clarification k lives: the installations take turns, so that the asks
// of one installation are spread over the whole run.
func (s fleetSize) issue(k int) (repo string, number int) {
	return fleetRepo(k % s.installations), k/s.installations + 1
}

func fleetRepo(i int) string { return fmt.Sprintf("org%03d/service", i) }

// populate installs the app in every installation, each with its repository, its config,
// its issues and maria, who may answer.
func (s fleetSize) populate(fake *fakegithub.Server) {
	fake.AddUser("maria", "User")
	fake.AddUser("coder-agent", "Bot")
	for i := range s.installations {
		repo := fleetRepo(i)
		fake.AddInstallation(int64(i+1), strings.Split(repo, "/")[0], repo)
		fake.SetPermission(repo, "maria", "write")
		fake.SetFile(repo, ".github/clarify.yml", "sla: "+fleetSLA.String()+"\n")
		for n := 1; n <= s.perInstallation; n++ {
			fake.OpenIssue(repo, n, fmt.Sprintf("Cache layer %d", n), "maria")
		}
	}
}

// fleet is one run of TestFleet.
type fleet struct {
	w     *replicaWorld
	size  fleetSize
	begin time.Time
	rdb   *redis.Client
	// killedMem is replica 0's memory just before it was killed.
	killedMem string
	// active counts the issues with a clarification open at the idle window.
	active int
}

// fleetEvent is one comment of the run, at its offset from the start.
type fleetEvent struct {
	at           time.Duration
	repo         string
	number       int
	author, body string
	ask          bool
}

// events lists the run's comments by time: each clarification's ask, and for those
// answered the answer within the SLA's first half and the asker's resolve after it.
func (f *fleet) events() []fleetEvent {
	s := f.size
	rng := mrand.New(mrand.NewPCG(42, 42))
	var out []fleetEvent
	for k := range s.total() {
		repo, n := s.issue(k)
		at := s.spread * time.Duration(k) / time.Duration(s.total())
		body := fmt.Sprintf("/clarify @maria Cache layer %d of %s: per tenant or per region?\nOptions:\na) per tenant\nb) per region", n, repo)
		if s.kind(k) != kindEscalate {
			body += "\nFallback: a"
		}
		out = append(out, fleetEvent{at: at, repo: repo, number: n, author: "coder-agent", body: body, ask: true})
		if s.kind(k) != kindAnswered {
			continue
		}
		answer := at + 5*time.Second + time.Duration(rng.IntN(15000))*time.Millisecond
		out = append(out, fleetEvent{at: answer, repo: repo, number: n, author: "maria", body: fmt.Sprintf("Per tenant for layer %d.", n)},
			fleetEvent{at: answer + 2*time.Second + time.Duration(rng.IntN(3000))*time.Millisecond, repo: repo, number: n, author: "coder-agent",
				body: fmt.Sprintf("/clarify resolve %s Per tenant.", clarify.FormatID(n, 1))})
	}
	slices.SortStableFunc(out, func(a, b fleetEvent) int { return int(a.at - b.at) })
	return out
}

// play makes every comment at its time, eight senders at once; each delivery goes to a
// replica picked at random and then to another, as in replicaWorld.play. Replica 0 is
// killed the moment it has accepted an ask once half the asks are made; a comment whose
// first pick is dead is not sent again (only the app's redelivery brings it back).
func (f *fleet) play() {
	w := f.w
	events := f.events()
	queue := make(chan fleetEvent, len(events))
	var asks atomic.Int64
	var killOnce sync.Once
	stopPump := w.pumping()
	var wg sync.WaitGroup
	for s := range 8 {
		wg.Go(func() {
			rng := mrand.New(mrand.NewPCG(7, uint64(s)))
			for ev := range queue {
				d, _ := w.fake.Comment(ev.repo, ev.number, ev.author, ev.body)
				first := rng.IntN(3)
				second := (first + 1 + rng.IntN(2)) % 3
				wasDead := w.procs[first].dead.Load()
				w.sent.Add(1)
				w.send(d, first, false)
				if ev.ask && asks.Add(1) >= int64(f.size.total()/2) && first == 0 {
					killOnce.Do(func() {
						f.killedMem = procMemory(w.procs[0].cmd.Process.Pid)
						w.kill(0)
					})
				}
				if !wasDead {
					w.sent.Add(1)
					w.send(d, second, false)
				}
			}
		})
	}
	for _, ev := range events {
		time.Sleep(time.Until(f.begin.Add(ev.at)))
		queue <- ev
	}
	close(queue)
	wg.Wait()
	stopPump()
}

// settle waits, pumping GitHub's own deliveries, until every clarification has come to
// its end, or until well past its last deadline.
func (f *fleet) settle() {
	defer f.w.pumping()()
	deadline := f.begin.Add(f.size.spread + 2*fleetSLA + 6*f.size.sweepEvery + time.Minute)
	done := map[int]bool{}
	for time.Now().Before(deadline) {
		for k := range f.size.total() {
			if !done[k] && f.ended(k) {
				done[k] = true
			}
		}
		if len(done) == f.size.total() {
			return
		}
		time.Sleep(2 * time.Second)
	}
}

// ended reports whether clarification k is where its kind leads: resolved or escalated,
// with its labels as they should be then.
func (f *fleet) ended(k int) bool {
	repo, n := f.size.issue(k)
	c, ok := f.w.clarificationIn(repo, n)
	if !ok {
		return false
	}
	labels := f.w.fake.IssueLabels(repo, n)
	if f.size.kind(k) == kindEscalate {
		return c.Status == clarify.Escalated && slices.Contains(labels, "clarification:escalated")
	}
	return c.Status == clarify.Resolved && len(labels) == 0
}
