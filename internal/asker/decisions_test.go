package asker_test

import (
	"context"
	"testing"

	"github.com/clarify-app/clarify/internal/asker"
)

func TestDecisionsInForceAreReadAsTheAppKeepsThem(t *testing.T) {
	w := newWorld(t)
	id := w.ask("--topic", "rate limits")
	w.say(person, "Per API key.")()
	w.say(agent, "/clarify resolve "+id+" Per API key, 100 a minute.")()
	c, err := asker.New(asker.Options{API: w.h.GitHub.URL + "/", Token: w.token, Slug: "clarify", Transport: w.wire})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Decisions(context.Background(), "octo", "widgets", "Rate Limits")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Decision != "Per API key, 100 a minute." || got[0].Where != "octo/widgets#42" || got[0].ID != id || got[0].By == "" {
		t.Fatalf("decisions on rate limits: %+v; want the one settled in octo/widgets#42", got)
	}
	if other, err := c.Decisions(context.Background(), "octo", "widgets", "logging"); err != nil || len(other) != 0 {
		t.Errorf("decisions on another topic: %+v, %v; want none", other, err)
	}
}
