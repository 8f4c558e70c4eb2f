package redisstate_test

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/redisstate"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
)

// logBuffer collects a store's log lines; safe for the store's goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// clock is a settable clock shared by the stores (replicas) of a test.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// replica is one process's view of the shared Redis.
func replica(t *testing.T, url string, tune func(*redisstate.Options)) (*redisstate.Store, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	opts := redisstate.Options{URL: url, Prefix: "clarify:test:", Logger: zerolog.New(logs)}
	if tune != nil {
		tune(&opts)
	}
	s, err := redisstate.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, logs
}

func TestCheckURLNeverQuotesThePassword(t *testing.T) {
	cases := map[string]struct {
		url string
		ok  bool
	}{
		"plain":              {"redis://127.0.0.1:6379/0", true},
		"withPassword":       {"redis://:s3cret@redis.internal:6379", true},
		"tls":                {"rediss://user:s3cret@redis.internal:6380/2", true},
		"socket":             {"unix:///run/redis.sock", true},
		"wrongScheme":        {"http://:s3cret@redis.internal", false},
		"badDatabase":        {"redis://:s3cret@redis.internal/x", false},
		"brokenWithPassword": {"redis://:s3cret@redis.internal:port", false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := redisstate.CheckURL(c.url)
			if (err == nil) != c.ok {
				t.Fatalf("CheckURL(%q) = %v, want ok=%v", c.url, err, c.ok)
			}
			if err != nil && bytes.Contains([]byte(err.Error()), []byte("s3cret")) {
				t.Errorf("the error quotes the password: %v", err)
			}
		})
	}
}

func TestStoreWorksWithRedisDownAndSaysSoOnce(t *testing.T) {
	srv := redistest.Start(t)
	clk := newClock()
	s, logs := replica(t, srv.URL, func(o *redisstate.Options) { o.Now = clk.Now })
	ctx := context.Background()
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Stop()

	for range 20 {
		unlock, err := s.IssueLeases().Lock(ctx, "octo/widgets#1")
		if err != nil {
			t.Fatalf("with Redis down, Lock = %v; want the in-process lock alone", err)
		}
		unlock()
		state, finish, err := s.Deliveries().Claim(ctx, "guid-1")
		if err != nil || finish == nil {
			t.Fatalf("with Redis down, Claim = %v, %v; want the delivery run", state, err)
		}
		finish(true)
	}
	if n := bytes.Count([]byte(logs.String()), []byte("REDIS UNREACHABLE")); n != 1 {
		t.Errorf("the outage was logged %d times in 40 calls, want once:\n%s", n, logs)
	}

	srv.Restart()
	clk.Advance(3 * time.Second) // past the pause after a failure
	unlock, err := s.IssueLeases().Lock(ctx, "octo/widgets#1")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if !bytes.Contains([]byte(logs.String()), []byte("Redis is reachable again")) {
		t.Errorf("the recovery was not logged:\n%s", logs)
	}
}
