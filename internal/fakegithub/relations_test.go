package fakegithub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// relationFixture is newFixture with issues #43, #44 and #45 besides #42.
func relationFixture(t *testing.T) *fixture {
	f := newFixture(t)
	for n := 43; n <= 45; n++ {
		f.s.OpenIssue(testRepo, n, fmt.Sprintf("Decision %d", n), "alice")
	}
	return f
}

func TestDependenciesTakeDatabaseIDs(t *testing.T) {
	f := relationFixture(t)
	const deps = "/repos/octo/widgets/issues/42/dependencies/blocked_by"
	// The number is not the id: GitHub answers 404 for an issue_id no issue has.
	if resp, body := f.do(t, http.MethodPost, deps, `{"issue_id": 43}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("issue_id 43 (a number): %d %s, want 404", resp.StatusCode, body)
	}
	for n := 43; n <= 45; n++ {
		resp, body := f.do(t, http.MethodPost, deps, fmt.Sprintf(`{"issue_id": %d}`, f.s.IssueID(testRepo, n)))
		if resp.StatusCode != http.StatusCreated || !strings.Contains(body, fmt.Sprintf(`"number":%d`, n)) {
			t.Fatalf("add #%d: %d %s, want 201 with the blocking issue", n, resp.StatusCode, body)
		}
	}
	if got := f.s.BlockedBy(testRepo, 42); !slices.Equal(got, []int{43, 44, 45}) {
		t.Errorf("blocked by %v", got)
	}
	if resp, body := f.do(t, http.MethodPost, deps, fmt.Sprintf(`{"issue_id": %d}`, f.s.IssueID(testRepo, 43))); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("the same edge again: %d %s, want 422", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, http.MethodPost, deps, fmt.Sprintf(`{"issue_id": %d}`, f.s.IssueID(testRepo, 42))); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("an issue blocked by itself: %d, want 422", resp.StatusCode)
	}
	if resp, _ := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/99/dependencies/blocked_by", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing issue's list: %d, want 404", resp.StatusCode)
	}
	// Paged as GitHub pages: per_page, a Link header to the next page.
	resp, body := f.do(t, http.MethodGet, deps+"?per_page=2", "")
	if !strings.Contains(resp.Header.Get("Link"), `rel="next"`) || strings.Count(body, `"number":`) != 2 {
		t.Errorf("page 1 of 2: Link %q, body %s", resp.Header.Get("Link"), body)
	}
	if _, body := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/44/dependencies/blocking", ""); !strings.Contains(body, `"number":42`) {
		t.Errorf("#44 blocking: %s, want #42", body)
	}
}

func TestADependencyComesOffOnce(t *testing.T) {
	f := relationFixture(t)
	const deps = "/repos/octo/widgets/issues/42/dependencies/blocked_by"
	for n := 43; n <= 45; n++ {
		f.do(t, http.MethodPost, deps, fmt.Sprintf(`{"issue_id": %d}`, f.s.IssueID(testRepo, n)))
	}
	id44 := f.s.IssueID(testRepo, 44)
	if resp, _ := f.do(t, http.MethodDelete, fmt.Sprintf("%s/%d", deps, id44), ""); resp.StatusCode != http.StatusOK {
		t.Errorf("remove: %d, want 200", resp.StatusCode)
	}
	if resp, _ := f.do(t, http.MethodDelete, fmt.Sprintf("%s/%d", deps, id44), ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("remove again: %d, want 404", resp.StatusCode)
	}
	if got := f.s.BlockedBy(testRepo, 42); !slices.Equal(got, []int{43, 45}) {
		t.Errorf("blocked by %v after removing #44", got)
	}
	var actions []string
	for _, d := range f.s.TakeOutbox() {
		var p struct {
			Action         string `json:"action"`
			BlockedIssueID int64  `json:"blocked_issue_id"`
		}
		if d.Event == "issue_dependencies" && json.Unmarshal(d.Body, &p) == nil && p.BlockedIssueID == f.s.IssueID(testRepo, 42) {
			actions = append(actions, p.Action)
		}
	}
	if want := []string{"blocked_by_added", "blocked_by_added", "blocked_by_added", "blocked_by_removed"}; !slices.Equal(actions, want) {
		t.Errorf("deliveries %v, want %v", actions, want)
	}
}

func TestASubIssueHasOneParent(t *testing.T) {
	f := relationFixture(t)
	sub := fmt.Sprintf(`{"sub_issue_id": %d}`, f.s.IssueID(testRepo, 44))
	if resp, body := f.do(t, http.MethodPost, "/repos/octo/widgets/issues/42/sub_issues", sub); resp.StatusCode != http.StatusCreated {
		t.Fatalf("add: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.do(t, http.MethodPost, "/repos/octo/widgets/issues/43/sub_issues", sub); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a second parent: %d, want 422", resp.StatusCode)
	}
	if _, body := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/44/parent", ""); !strings.Contains(body, `"number":42`) {
		t.Errorf("parent of #44: %s", body)
	}
	if resp, _ := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/43/parent", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("parent of an issue without one: %d, want 404", resp.StatusCode)
	}
	if resp, _ := f.do(t, http.MethodDelete, "/repos/octo/widgets/issues/42/sub_issue", sub); resp.StatusCode != http.StatusOK {
		t.Errorf("remove: %d", resp.StatusCode)
	}
	if got := f.s.SubIssues(testRepo, 42); len(got) != 0 {
		t.Errorf("sub-issues %v after removing", got)
	}
	if resp, _ := f.do(t, http.MethodDelete, "/repos/octo/widgets/issues/42/sub_issue", sub); resp.StatusCode != http.StatusNotFound {
		t.Errorf("remove again: %d, want 404", resp.StatusCode)
	}
}

func TestWithoutRelationsEveryRouteIs404(t *testing.T) {
	f := relationFixture(t)
	f.s.DisableRelations()
	for _, p := range []string{"dependencies/blocked_by", "dependencies/blocking", "sub_issues", "parent"} {
		if resp, _ := f.do(t, http.MethodGet, "/repos/octo/widgets/issues/42/"+p, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
}
