package clarify

import "testing"

// TestParseIssueRefReadsWhatPeopleType: OWNER/REPO#N comes back as written; anything
// that names no single issue is refused rather than guessed at.
func TestParseIssueRefReadsWhatPeopleType(t *testing.T) {
	ref, ok := ParseIssueRef("octo/widgets#42")
	if !ok || ref != (IssueRef{Owner: "octo", Repo: "widgets", Number: 42}) || ref.String() != "octo/widgets#42" || ref.FullName() != "octo/widgets" {
		t.Fatalf("octo/widgets#42 read as %+v, %v", ref, ok)
	}
	for _, bad := range []string{"", "octo/widgets", "octo#1", "/widgets#1", "octo/#1", "octo/a/b#1", "octo/widgets#0", "octo/widgets#x", "octo/widgets#-3"} {
		if ref, ok := ParseIssueRef(bad); ok {
			t.Errorf("%q read as %+v: want refused", bad, ref)
		}
	}
	if _, _, ok := ParseRepo("octo/widgets#1"); ok {
		t.Error("ParseRepo took octo/widgets#1 for a repository")
	}
}

// TestParseRepoTakesGitHubsCharactersOnly: a name GitHub could not have is refused, so
// that nothing built from it names a path instead of a repository.
func TestParseRepoTakesGitHubsCharactersOnly(t *testing.T) {
	for _, good := range []string{"octo/widgets", "octo/.github", "Octo-Org/my_repo.v2", "a_b/c-d", "octo/..x"} {
		if _, _, ok := ParseRepo(good); !ok {
			t.Errorf("ParseRepo(%q) refused a name GitHub allows", good)
		}
	}
	for _, bad := range []string{"octo/.", "octo/..", "../widgets", "oc.to/widgets", "octo/wid gets", "octo/wid?gets", "octo/wid%2fgets",
		"octo/", "/widgets", "octo/a/b", "octo/é", "octo\\widgets", "octo/widgets\n"} {
		if o, r, ok := ParseRepo(bad); ok {
			t.Errorf("ParseRepo(%q) = %s/%s: want refused", bad, o, r)
		}
	}
}
