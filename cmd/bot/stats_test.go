package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/clarify-app/clarify/internal/cli"
	"github.com/clarify-app/clarify/internal/readcmd"
)

func TestStatsDigestsARepositorysLedgers(t *testing.T) {
	h := demoIssue(t) // #42: one clarification, two rounds, resolved; one assumption
	ctx := context.Background()
	h.Fake.OpenIssue("octo/widgets", 45, "Nothing asked here", "maria")
	h.Fake.OpenIssue("octo/widgets", 46, "Region", "maria")
	d, _ := h.Fake.Comment("octo/widgets", 46, "coder-agent", "/clarify @maria Which region?")
	if _, err := h.Deliver(ctx, d); err != nil {
		t.Fatal(err)
	}
	ledgerEnv(t, map[string]string{
		"GITHUB_TOKEN": h.Fake.IssueToken(1), "GITHUB_V3_API_URL": h.GitHub.URL,
		"GITHUB_APP_PRIVATE_KEY": h.Config.Github.App.PrivateKey,
	})
	var out, errs bytes.Buffer
	// The in-memory GitHub's clock is in January 2026: look back far enough.
	if err := readcmd.Stats([]string{"octo/widgets", "-since", "100000h"}, readcmd.Keyed(), cli.Std{Out: &out, Err: &errs}); err != nil {
		t.Fatalf("bot stats: %v\n%s", err, errs.String())
	}
	for _, line := range []string{
		"· 2 clarification(s), 3 round(s), 1 assumption(s)",
		"| pending | 1 |", "| resolved | 1 |",
		"- 1.5 round(s) per clarification on average",
		"- time to a first answer: median 7m, mean 7m (1 answered)",
		"- 0 escalated to the maintainers",
		"- decisions remembered: 1 in force, 0 superseded",
		"4 issue(s) updated since then, 2 with clarifications.", // and the decisions issue the resolve of #42 opened
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the digest lacks %q:\n%s", line, out.String())
		}
	}
	if strings.Contains(errs.String(), "MAC not checked") {
		t.Errorf("with the app's key the MACs are checked: %s", errs.String())
	}
}
