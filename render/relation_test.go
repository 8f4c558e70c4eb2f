package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clarify-app/clarify/clarify"
)

func TestADecisionIssueTitleIsOneShortLine(t *testing.T) {
	long := "Should the\nlimit apply per API key, per client IP, per organisation, per user agent or per something else entirely?"
	cases := map[string]struct {
		c    clarify.Clarification
		want string
	}{
		"topic": {clarify.Clarification{ID: "CLR-42-001", Topic: "rate-limit  scope"}, "Decision needed: rate-limit scope (CLR-42-001)"},
		"questionWhenNoTopic": {clarify.Clarification{ID: "CLR-42-002", Round: 1, Thread: []clarify.Entry{{Kind: clarify.KindQuestion, Round: 1, Text: long}}},
			"Decision needed: Should the limit apply per API key, per client IP, per organisation, per user… (CLR-42-002)"},
		"nothingToNameItBy": {clarify.Clarification{ID: "CLR-42-003"}, "Decision needed (CLR-42-003)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := RelationTitle(tc.c)
			if got != tc.want {
				t.Errorf("title %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "\n") || utf8.RuneCountInString(got) > capTitle+len(" (CLR-42-001)")+len("Decision needed: ") {
				t.Errorf("title %q is not one short line", got)
			}
		})
	}
}

func TestADecisionIssueClosesWithWhatWasDecided(t *testing.T) {
	work := clarify.IssueRef{Owner: "octo", Repo: "widgets", Number: 42}
	resolved := clarify.Clarification{ID: "CLR-42-001", Status: clarify.Resolved, Resolution: "Per key.\n\n<!-- clarify:status -->"}
	got := RelationClosed("CLR-42-001", &resolved, work, "k")
	if !strings.Contains(got, "**Decided** (CLR-42-001, in octo/widgets#42):\n\n> Per key.") || strings.Contains(got, "<!-- clarify:status") {
		t.Errorf("resolved: %q", got)
	}
	if got := RelationClosed("CLR-42-001", nil, work, "k"); !strings.Contains(got, "its record is in octo/widgets#42") {
		t.Errorf("archived: %q", got)
	}
	if !strings.HasSuffix(got, Marker("k")+"\n") {
		t.Errorf("no marker at the end: %q", got)
	}
}
