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
