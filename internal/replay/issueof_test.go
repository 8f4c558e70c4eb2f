package replay

import (
	"testing"

	"github.com/clarify-app/clarify/internal/fakegithub"
)

func TestTheIssueOfEveryKindOfDeliveryIsPrinted(t *testing.T) {
	s := fakegithub.New(fakegithub.Options{})
	s.AddInstallation(1, "octo", "octo/widgets")
	s.AddUser("maria", "User")
	s.AddUser("coder-agent", "Bot")
	s.OpenIssue("octo/widgets", 42, "Rate limit", "maria")
	comment, _ := s.Comment("octo/widgets", 42, "maria", "hello")
	cases := map[string]fakegithub.Delivery{
		"octo/widgets#42 (comment)":          comment,
		"octo/widgets#42 (dispatch)":         s.Dispatch("octo/widgets", "coder-agent", "clarify", map[string]any{"issue": 42, "action": "resolve"}),
		"octo/widgets#42 (dispatch, string)": s.Dispatch("octo/widgets", "coder-agent", "clarify", map[string]any{"issue": "42", "action": "resolve"}),
	}
	if got, ok := issueOf(s.OpenPullRequestWithBody("octo/widgets", 7, "Split", "maria", "Fixes #42")); !ok || got != "octo/widgets#7" {
		t.Errorf("pull request: issueOf = %q, %v; want the pull request itself", got, ok)
	}
	for name, d := range cases {
		if got, ok := issueOf(d); !ok || got != "octo/widgets#42" {
			t.Errorf("%s: issueOf = %q, %v", name, got, ok)
		}
	}
	if got, ok := issueOf(s.Dispatch("octo/widgets", "coder-agent", "clarify", map[string]any{"action": "resolve"})); ok {
		t.Errorf("a dispatch naming no issue has none, got %q", got)
	}
	// The dispatch handler refuses "#42" as naming no issue, so the replay does not
	// count #42 touched by it either.
	if got, ok := issueOf(s.Dispatch("octo/widgets", "coder-agent", "clarify", map[string]any{"issue": "#42", "action": "resolve"})); ok {
		t.Errorf(`a dispatch naming "#42" names no issue for the handler, got %q`, got)
	}
}
