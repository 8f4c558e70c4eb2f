package replay_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/replay"
	"github.com/clarify-app/clarify/render"
)

// The chaos test plays one-round lifecycles (an agent asks, a maintainer answers, the
// agent resolves) while GitHub fails as it does: first 20% of API requests fail, then 20%
// of deliveries never get through, then the app is stopped and started again half-way.
// After each phase the app gets what serve gives it (sweeps, each followed by a
// redelivery check), and every lifecycle must end resolved with no comment posted twice.
// CLARIFY_CHAOS_LIFECYCLES sets the lifecycles per phase (a larger run for figures), and
// CLARIFY_CHAOS_SEED the seed.

const chaosRepo = "octo/widgets"

// healRounds bounds the sweeps a phase gets to settle: a minute of serve's ticker each.
const healRounds = 5

func TestChaos(t *testing.T) {
	n := envInt(t, "CLARIFY_CHAOS_LIFECYCLES", 8)
	seed := uint64(envInt(t, "CLARIFY_CHAOS_SEED", 1))
	var logs io.Writer = io.Discard
	if os.Getenv("CLARIFY_CHAOS_LOGS") != "" {
		logs = os.Stderr
	}
	h, err := replay.NewHarness(logs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Fake.AddInstallation(1, "octo", chaosRepo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(chaosRepo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	for i := 1; i <= 3*n; i++ {
		h.Fake.OpenIssue(chaosRepo, i, "Issue "+strconv.Itoa(i), "maria")
	}
	c := &chaos{t: t, h: h, rnd: rand.New(rand.NewPCG(seed, 7))}

	t.Run("faults", func(t *testing.T) {
		h.Fake.SetChaos(fakegithub.Chaos{Rate: 0.2, Seed: seed, RetryAfter: 1})
		c.phase(t, "20% of API requests fail", issues(1, n), c.deliver)
		t.Logf("faults injected: %v", h.Fake.ChaosCounts())
		h.Fake.SetChaos(fakegithub.Chaos{})
	})
	t.Run("dropped deliveries", func(t *testing.T) {
		c.phase(t, "20% of deliveries dropped", issues(n+1, 2*n), func(d fakegithub.Delivery) {
			if c.rnd.Float64() < 0.2 {
				h.Drop(d)
				return
			}
			c.deliver(d)
		})
	})
	t.Run("restart", func(t *testing.T) {
		sent, stopAt := 0, 3*n/2 // half-way through the phase's 3n events
		c.phase(t, "app stopped and started half-way", issues(2*n+1, 3*n), func(d fakegithub.Delivery) {
			switch sent++; sent {
			case stopAt:
				h.Stop()
			case 2 * stopAt:
				if _, err := h.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			c.deliver(d)
		})
	})
}

type chaos struct {
	t   *testing.T
	h   *replay.Harness
	rnd *rand.Rand
}

func (c *chaos) deliver(d fakegithub.Delivery) {
	c.t.Helper()
	if _, err := c.h.Deliver(context.Background(), d); err != nil {
		c.t.Fatal(err)
	}
}

// phase plays a lifecycle in each issue, the steps of all issues interleaved, then lets
// the app heal, and checks every issue.
func (c *chaos) phase(t *testing.T, name string, nums []int, deliver func(fakegithub.Delivery)) {
	start := time.Now()
	before, missed := len(c.h.Fake.Requests()), len(c.h.Missed)
	steps := []func(n int) (string, string){
		func(n int) (string, string) {
			return "coder-agent", "/clarify @maria Per key or per IP, in #" + strconv.Itoa(n) + "?"
		},
		func(n int) (string, string) { return "maria", "Per key." },
		func(n int) (string, string) {
			return "coder-agent", fmt.Sprintf("/clarify resolve CLR-%d-001 Per key", n)
		},
	}
	for _, step := range steps {
		for _, n := range nums {
			author, body := step(n)
			d, _ := c.h.Fake.Comment(chaosRepo, n, author, body)
			deliver(d)
			c.h.Fake.Advance(5 * time.Second)
		}
	}
	resolvedAtOnce := c.resolved(nums)
	rounds := 0
	for ; rounds < healRounds && c.resolved(nums) < len(nums); rounds++ {
		c.h.Fake.Advance(time.Minute)
		// A sweep or a check that fails is logged by serve and run again a minute later.
		_, _ = c.h.Sweep(context.Background())
		_, _ = c.h.Redeliver(context.Background())
	}
	resolved := c.resolved(nums)
	dups := c.duplicates(nums)
	t.Logf("%s: %d lifecycles, %d deliveries missed, %d resolved at once, %d after %d sweeps; %d duplicate comments; %d requests; %s",
		name, len(nums), len(c.h.Missed)-missed, resolvedAtOnce, resolved, rounds, dups, len(c.h.Fake.Requests())-before,
		time.Since(start).Round(time.Millisecond))
	if resolved != len(nums) {
		t.Errorf("%d of %d lifecycles ended resolved", resolved, len(nums))
	}
	if dups != 0 {
		t.Errorf("%d comments posted twice", dups)
	}
}

// resolved counts the issues whose clarification is resolved and whose active label is off.
func (c *chaos) resolved(nums []int) int {
	done := 0
	for _, n := range nums {
		l, err := c.h.Ledger(chaosRepo, n)
		if err != nil {
			continue
		}
		cl, ok := l.Find(fmt.Sprintf("CLR-%d-001", n))
		if ok && cl.Status == clarify.Resolved && len(c.h.Fake.IssueLabels(chaosRepo, n)) == 0 {
			done++
		}
	}
	return done
}

// markerRe takes the key out of a message marker, plain or sealed.
var markerRe = regexp.MustCompile(`<!-- clarify:msg ([^ ]+)(?: v2)?(?: [^ ]+)? -->`)

// duplicates counts the app's comments beyond the first with the same hidden marker, and
// status comments beyond one per issue.
func (c *chaos) duplicates(nums []int) int {
	dups := 0
	for _, n := range nums {
		seen := map[string]bool{}
		status := 0
		for _, cm := range c.h.Fake.Comments(chaosRepo, n) {
			if cm.User != c.h.Fake.BotLogin() {
				continue
			}
			if render.IsStatus(cm.Body) {
				status++
				continue
			}
			for _, m := range markerRe.FindAllStringSubmatch(cm.Body, -1) {
				if seen[m[1]] {
					dups++
				}
				seen[m[1]] = true
			}
		}
		dups += max(0, status-1)
	}
	return dups
}

func issues(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func envInt(t *testing.T, key string, def int) int {
	s := os.Getenv(key)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		t.Fatalf("%s=%q: want a positive number", key, s)
	}
	return v
}
