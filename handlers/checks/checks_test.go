package checks

import (
	"slices"
	"testing"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
)

func TestClosingRefsReadsGitHubsKeywords(t *testing.T) {
	cases := map[string][]int{
		"Fixes #42":                            {42},
		"fixed #42, closes #7 and RESOLVES #8": {42, 7, 8},
		"Closes: #42":                          {42},
		"close octo/widgets#42":                {42},
		"Closes OCTO/Widgets#42":               {42},
		"resolved https://github.com/octo/widgets/issues/42": {42},
		"Fixes other/repo#42":                                nil,
		"Refs #42":                                           nil,
		"hotfixes #42":                                       nil,
		"Fixes #42a":                                         nil,
		"Fixes\n#42":                                         nil,
		"Fixes #42, #43":                                     {42},
		"Fixes #42\nFixes #42":                               {42},
	}
	for text, want := range cases {
		if got := closingRefs(text, "octo", "widgets"); !slices.Equal(got, want) {
			t.Errorf("%q links %v, want %v", text, got, want)
		}
	}
}

func TestOnlyAPullRequestIntoTheDefaultBranchLinks(t *testing.T) {
	pr := func(base string) *github.PullRequest {
		return &github.PullRequest{Body: github.String("Fixes #42"),
			Base: &github.PullRequestBranch{Ref: github.String(base), Repo: &github.Repository{DefaultBranch: github.String("main")}}}
	}
	if got := LinkedIssues(pr("main"), "octo", "widgets"); !slices.Equal(got, []int{42}) {
		t.Errorf("into main: %v", got)
	}
	if got := LinkedIssues(pr("release-1"), "octo", "widgets"); got != nil {
		t.Errorf("into another branch: %v, want none (GitHub closes nothing then)", got)
	}
}

func TestBlockingIDsCountOnlyOpenBlockingClarifications(t *testing.T) {
	l := clarify.NewLedger(42)
	l.Clarifications = []clarify.Clarification{
		{ID: "CLR-42-001", Blocking: true, Status: clarify.Pending},
		{ID: "CLR-42-002", Blocking: false, Status: clarify.Pending},
		{ID: "CLR-42-003", Blocking: true, Status: clarify.Resolved},
		{ID: "CLR-42-004", Blocking: true, Status: clarify.Escalated},
	}
	if got := blockingIDs(l); !slices.Equal(got, []string{"CLR-42-001", "CLR-42-004"}) {
		t.Errorf("blocking ids = %v", got)
	}
}
