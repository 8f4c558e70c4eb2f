package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/render"
)

// check asserts every clarification's end: each answer taken and resolved by its asker,
// each one left alone stale and then resolved with its fallback or escalated, and the
// app's comments each posted once. It returns the transitions lost and the duplicates.
func (f *fleet) check() (lost, dups int) {
	t := f.w.t
	t.Helper()
	for k := range f.size.total() {
		repo, n := f.size.issue(k)
		c, _ := f.w.clarificationIn(repo, n)
		if want, got := fleetThread(f.size.kind(k)), threadKinds(c); !f.ended(k) || got != want {
			lost++
			if lost <= 5 {
				t.Errorf("%s#%d: %s, thread %s, labels %v; want thread %s", repo, n, c.Status, got, f.w.fake.IssueLabels(repo, n), want)
			}
		}
		dups += f.postedTwice(repo, n)
	}
	if lost > 5 {
		t.Errorf("%d clarifications in all did not end as they should", lost)
	}
	return lost, dups
}

// fleetThread is the thread a clarification of the kind ends with.
func fleetThread(kind int) string {
	switch kind {
	case kindAnswered:
		return "[question answer resolution]"
	case kindFallback:
		return "[question note resolution]"
	default:
		return "[question note escalation]"
	}
}

func threadKinds(c clarify.Clarification) string {
	var kinds []string
	for _, e := range c.Thread {
		kinds = append(kinds, string(e.Kind))
	}
	return fmt.Sprint(kinds)
}

// postedTwice counts the app's comments in the issue whose body it had posted already,
// and status comments beyond the one.
func (f *fleet) postedTwice(repo string, n int) int {
	t := f.w.t
	seen := map[string]bool{}
	dups, statuses := 0, 0
	for _, cm := range f.w.fake.Comments(repo, n) {
		if cm.User != "clarify[bot]" {
			continue
		}
		if seen[cm.Body] {
			dups++
			t.Errorf("%s#%d: the app posted twice:\n%s", repo, n, cm.Body)
		}
		seen[cm.Body] = true
		if render.IsStatus(cm.Body) {
			statuses++
		}
	}
	if statuses > 1 {
		t.Errorf("%s#%d: %d status comments", repo, n, statuses)
		dups += statuses - 1
	}
	return dups
}

// lateness measures, for each clarification left alone, how late its two deadlines were
// seen on GitHub: the stale ping's comment after the deadline the ledger's stale note
// names (one SLA after the ask), and the fallback's or escalation's comment after a second
// SLA from that deadline. The app's messages in such an issue, besides the status comment
// that shows the question, are the ping and the end, in that order.
func (f *fleet) lateness() (stale, end string) {
	var first, second []time.Duration
	for k := range f.size.total() {
		if f.size.kind(k) == kindAnswered {
			continue
		}
		repo, n := f.size.issue(k)
		c, ok := f.w.clarificationIn(repo, n)
		due := staleDeadline(c)
		var msgs []time.Time
		for _, cm := range f.w.fake.Comments(repo, n) {
			if cm.User == "clarify[bot]" && !render.IsStatus(cm.Body) {
				msgs = append(msgs, cm.CreatedAt)
			}
		}
		if !ok || due.IsZero() || len(msgs) != 2 {
			f.w.t.Errorf("%s#%d: %d messages of the app besides its status comment, and stale deadline %v; want the ping and the end", repo, n, len(msgs), due)
			continue
		}
		first = append(first, msgs[0].Sub(due))
		second = append(second, msgs[1].Sub(due.Add(fleetSLA)))
	}
	return spreadOf(first), spreadOf(second)
}

// staleDeadline is the deadline at which c went stale, as its ledger's stale note says.
func staleDeadline(c clarify.Clarification) time.Time {
	for _, e := range c.Thread {
		if e.Kind == clarify.KindNote && strings.HasPrefix(e.Text, "stale: ") {
			return e.At
		}
	}
	return time.Time{}
}

// spreadOf says n, p50, p99 and max of ds.
func spreadOf(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	slices.Sort(ds)
	at := func(p int) time.Duration { return ds[min(len(ds)-1, len(ds)*p/100)].Round(10 * time.Millisecond) }
	return fmt.Sprintf("%d deadlines, p50 %v, p99 %v, max %v", len(ds), at(50), at(99), ds[len(ds)-1].Round(10*time.Millisecond))
}

// memory says each live replica's memory, and the killed one's just before its kill.
func (f *fleet) memory() string {
	var parts []string
	for _, i := range f.w.live() {
		parts = append(parts, fmt.Sprintf("replica %d %s", i, procMemory(f.w.procs[i].cmd.Process.Pid)))
	}
	if f.killedMem != "" {
		parts = append(parts, "replica 0 just before its kill "+f.killedMem)
	}
	return strings.Join(parts, "; ")
}

// procMemory reads a process's resident memory now and at its peak (VmRSS, VmHWM).
func procMemory(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	var rss, hwm string
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "VmRSS":
			rss = strings.TrimSpace(v)
		case "VmHWM":
			hwm = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("resident %s (peak %s)", rss, hwm)
}

// idle waits out the idle window, nothing said and nothing due (the escalated issues
// wait for people), and counts GitHub's requests and Redis's commands in it.
func (f *fleet) idle() {
	w := f.w
	active := 0
	for k := range f.size.total() {
		repo, n := f.size.issue(k)
		if slices.Contains(w.fake.IssueLabels(repo, n), "clarification:active") ||
			slices.Contains(w.fake.IssueLabels(repo, n), "clarification:escalated") {
			active++
		}
	}
	start, c0 := time.Now(), redisCommands(w.t, f.rdb)
	time.Sleep(f.size.idle)
	took, c1 := time.Since(start), redisCommands(w.t, f.rdb)
	reqs, app := 0, 0
	for _, r := range w.fake.Requests() {
		if r.At.Before(start) {
			continue
		}
		reqs++
		if r.Installation == 0 {
			app++
		}
	}
	perMinute := float64(reqs) / took.Minutes()
	w.t.Logf("idle %v, %d issues with a clarification waiting on people, 2 replicas: %d GitHub requests (%d as the App: delivery log, installations), %.3f per active issue per idle minute; Redis %.0f commands a second",
		took.Round(time.Second), active, reqs, app, perMinute/float64(max(active, 1)), float64(c1-c0)/took.Seconds())
	f.active = active
}

// restartRead restarts the app: the two replicas left are stopped (SIGTERM) and replica 0
// started again on the same Redis. It reports what its first sweep, which walks every
// installation, read: the issues it visited of the active ones, and its requests.
func (f *fleet) restartRead() {
	w := f.w
	for _, i := range w.live() {
		w.stop(i)
	}
	start, c0 := time.Now(), redisCommands(w.t, f.rdb)
	w.start(0)
	deadline := time.Now().Add(4 * f.size.sweepEvery)
	for {
		if s, ok := firstSweep(w.procs[0].log); ok {
			c1 := redisCommands(w.t, f.rdb)
			w.t.Logf("the app restarted (replica 0 alone), its first sweep %v after its start: walked %v, %d installations, %d repositories, %d issues visited (%d found by the walk, %d due) of %d active, %d GitHub requests; Redis %d commands meanwhile",
				time.Since(start).Round(time.Second), s.Walked, s.Installations, s.Repos, s.Issues, s.Found, s.Due, f.active, s.Requests, c1-c0)
			return
		}
		if time.Now().After(deadline) {
			w.t.Errorf("the restarted replica did not sweep within %v", 4*f.size.sweepEvery)
			return
		}
		time.Sleep(time.Second)
	}
}

// sweepLine is what the app logs of one sweep ("Sweep finished").
type sweepLine struct {
	Message       string `json:"message"`
	Walked        bool   `json:"walked"`
	Installations int    `json:"installations"`
	Repos         int    `json:"repositories"`
	Issues        int    `json:"issues"`
	Due           int    `json:"due"`
	Found         int    `json:"found_by_walk"`
	Requests      int    `json:"requests"`
}

// firstSweep reads a replica's log for its first finished sweep.
func firstSweep(path string) (sweepLine, bool) {
	sweeps := sweepsIn(path)
	if len(sweeps) == 0 {
		return sweepLine{}, false
	}
	return sweeps[0], true
}

// sweepsIn reads a replica's log for its finished sweeps, in order.
func sweepsIn(path string) []sweepLine {
	file, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer file.Close()
	var out []sweepLine
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var s sweepLine
		if json.Unmarshal(sc.Bytes(), &s) == nil && s.Message == "Sweep finished" {
			out = append(out, s)
		}
	}
	return out
}

// sweeps says how the replicas' sweeps shared the deadlines: how many ran, how many had
// due issues, the most due issues and requests in one.
func (f *fleet) sweeps() string {
	runs, busy, most, requests := 0, 0, 0, 0
	for _, p := range f.w.procs {
		for _, s := range sweepsIn(p.log) {
			runs++
			if s.Due > 0 {
				busy++
			}
			most, requests = max(most, s.Due), max(requests, s.Requests)
		}
	}
	return fmt.Sprintf("%d sweeps, %d with due issues, at most %d due issues and %d requests in one", runs, busy, most, requests)
}

func redisClient(t *testing.T, url string) *redis.Client {
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// redisCommands reads how many commands Redis has processed since it started.
func redisCommands(t *testing.T, rdb *redis.Client) int64 {
	v := redisInfo(t, rdb, "stats", "total_commands_processed")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		t.Fatalf("redis INFO: total_commands_processed %q", v)
	}
	return n
}

// redisInfo reads one field of a section of Redis's INFO.
func redisInfo(t *testing.T, rdb *redis.Client, section, field string) string {
	info, err := rdb.Info(context.Background(), section).Result()
	if err != nil {
		t.Fatalf("redis INFO: %v", err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v
		}
	}
	t.Fatalf("redis INFO %s has no %s", section, field)
	return ""
}
