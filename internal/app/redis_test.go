package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/testenv"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
	"github.com/clarify-app/clarify/internal/replay"
)

func TestRedisURLComesFromTheFileOrREDIS_URL(t *testing.T) {
	withRequiredEnv(t)
	c, err := app.LoadConfig(writeConfig(t, "clarify:\n  redis_url: redis://127.0.0.1:6379/1\n"))
	if err != nil || c.Clarify.RedisURL != "redis://127.0.0.1:6379/1" {
		t.Fatalf("from the file: %q, %v", c.Clarify.RedisURL, err)
	}
	t.Setenv("REDIS_URL", "rediss://:pw@redis.internal:6380")
	c, err = app.LoadConfig(writeConfig(t, "clarify:\n  redis_url: redis://127.0.0.1:6379/1\n"))
	if err != nil || c.Clarify.RedisURL != "rediss://:pw@redis.internal:6380" {
		t.Fatalf("REDIS_URL must win over the file: %q, %v", c.Clarify.RedisURL, err)
	}
}

func TestABadRedisURLStopsTheStartWithoutQuotingItsPassword(t *testing.T) {
	withRequiredEnv(t)
	for _, url := range []string{"redis://:hunter2@redis.internal:port", "http://:hunter2@redis.internal", "redis://:hunter2@redis.internal/db"} {
		t.Setenv("REDIS_URL", url)
		_, err := app.LoadConfig("")
		if err == nil || !strings.Contains(err.Error(), "clarify.redis_url (REDIS_URL)") {
			t.Errorf("%s: err = %v, want a refusal naming clarify.redis_url", url, err)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the refusal quotes the password: %v", err)
		}
	}
}

// TestTheAppServesWhileRedisIsDownAndSharesAgainWhenItIsBack: a Redis that stops
// answering makes the replica a single process (the lifecycle goes on, the outage is
// logged loudly, once), and once Redis answers again deliveries are remembered there.
func TestTheAppServesWhileRedisIsDownAndSharesAgainWhenItIsBack(t *testing.T) {
	srv := redistest.Start(t)
	logs := &testenv.Buffer{}
	h, err := replay.NewHarnessWith(logs, func(c *app.Config) { c.Clarify.RedisURL = srv.URL })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	if h.App.Redis == nil {
		t.Fatal("clarify.redis_url set, yet the app shares nothing")
	}
	h.Fake.AddInstallation(1, "octo", repo)
	h.Fake.AddUser("maria", "User")
	h.Fake.SetPermission(repo, "maria", "write")
	h.Fake.AddUser("coder-agent", "Bot")
	h.Fake.OpenIssue(repo, 42, "Rate-limit the public API", "maria")
	ctx := context.Background()
	deliver := func(author, body string) fakegithub.Delivery {
		t.Helper()
		d, _ := h.Fake.Comment(repo, 42, author, body)
		if st, err := h.Deliver(ctx, d); err != nil || st != http.StatusOK {
			t.Fatalf("delivery of %q: %d %v", body, st, err)
		}
		return d
	}

	srv.Stop()
	deliver("coder-agent", "/clarify @maria Per API key or per client IP?")
	deliver("maria", "Per API key.")
	if n := strings.Count(logs.String(), "REDIS UNREACHABLE"); n != 1 {
		t.Errorf("the outage was logged %d times, want once", n)
	}
	if l, err := h.Ledger(repo, 42); err != nil || l.Clarifications[0].Status != clarify.Answered {
		t.Fatalf("with Redis down, the ask and the answer were not applied: %v %+v", err, l)
	}

	srv.Restart()
	time.Sleep(2100 * time.Millisecond) // the pause after a failure, before Redis is tried again
	resolve := deliver("coder-agent", "/clarify resolve CLR-42-001")
	if !strings.Contains(logs.String(), "Redis is reachable again") {
		t.Error("the recovery was not logged")
	}
	if l, _ := h.Ledger(repo, 42); l.Clarifications[0].Status != clarify.Resolved {
		t.Fatalf("after Redis came back: %+v", l.Clarifications[0])
	}
	if _, err := h.Deliver(ctx, resolve); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "Duplicate delivery: it already ran") {
		t.Error("a redelivery after Redis came back was not recognised")
	}
}
