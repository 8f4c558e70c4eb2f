package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/app"
	"github.com/clarify-app/clarify/internal/fakegithub"
	"github.com/clarify-app/clarify/internal/redisstate/redistest"
	"github.com/clarify-app/clarify/internal/replay"
)

// TestAnOfferOnOneReplicaSeesADecisionAnotherJustMade: two replicas behind one webhook
// URL share Redis. Replica B has read the repository's memory a moment ago (an ask there);
// replica A then records a decision. B's next ask on that topic, still within the minute
// it trusts its copy of the memory, is offered A's decision.
func TestAnOfferOnOneReplicaSeesADecisionAnotherJustMade(t *testing.T) {
	srv := redistest.Start(t)
	a, err := replay.NewHarnessWith(io.Discard, func(c *app.Config) { c.Clarify.RedisURL = srv.URL })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	b, err := app.NewApp(a.Config, app.NewLogger(io.Discard, "debug"), a.Fake.Now)
	if err != nil {
		t.Fatal(err)
	}
	bServer := httptest.NewServer(b.Handler)
	t.Cleanup(func() { bServer.Close(); _ = b.Scheduler.Drain(context.Background()); _ = b.Redis.Close() })

	a.Fake.AddInstallation(1, "octo", repo)
	a.Fake.AddUser("maria", "User")
	a.Fake.SetPermission(repo, "maria", "write")
	a.Fake.AddUser("coder-agent", "Bot")
	for _, n := range []int{42, 50, 60} {
		a.Fake.OpenIssue(repo, n, "Issue", "maria")
	}
	ctx := context.Background()
	onA := func(n int, author, body string) {
		t.Helper()
		d, _ := a.Fake.Comment(repo, n, author, body)
		if st, err := a.Deliver(ctx, d); err != nil || st != http.StatusOK {
			t.Fatalf("replica A, %q: %d %v", body, st, err)
		}
	}
	onB := func(n int, author, body string) {
		t.Helper()
		d, _ := a.Fake.Comment(repo, n, author, body)
		if st, err := fakegithub.Send(ctx, bServer.Client(), bServer.URL+"/api/github/hook", a.Secret, d); err != nil || st != http.StatusOK {
			t.Fatalf("replica B, %q: %d %v", body, st, err)
		}
		b.Scheduler.Wait()
	}

	onB(50, "coder-agent", "/clarify @maria How many upload retries?\nTopic: Upload retries")
	onA(42, "coder-agent", "/clarify @maria Should the cache be per user or global?\nTopic: Cache scope")
	onA(42, "maria", "Per user.")
	onA(42, "coder-agent", "/clarify resolve CLR-42-001 Per-user cache, keyed by tenant.")
	onB(60, "coder-agent", "/clarify @maria Where should search results be cached?\nTopic: Cache scope")

	var round string
	for _, c := range a.Fake.Comments(repo, 60) {
		if c.User == a.Fake.BotLogin() {
			round += c.Body
		}
	}
	if !strings.Contains(round, "**Decided before** in CLR-42-001") {
		t.Errorf("replica B did not offer the decision replica A made a moment before:\n%s", round)
	}
}
