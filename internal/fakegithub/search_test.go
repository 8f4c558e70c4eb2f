package fakegithub

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// labelled opens n issues in testRepo from number 100 on, each carrying label.
func labelled(f *fixture, n int, label string) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	r := f.s.repoLocked(testRepo)
	for i := range n {
		r.issues[100+i] = &issue{id: int64(900000 + i), number: 100 + i, title: "t", author: "alice", state: "open",
			labels: []string{label}, created: f.s.nowLocked(), updated: f.s.nowLocked()}
	}
}

// searchResult is a search's answer as a client reads it.
type searchResult struct {
	TotalCount int `json:"total_count"`
	Items      []struct {
		Number int `json:"number"`
	} `json:"items"`
}

func (f *fixture) search(t *testing.T, q string, page, perPage string) (*http.Response, searchResult) {
	t.Helper()
	v := url.Values{"q": {q}, "page": {page}, "per_page": {perPage}, "sort": {"created"}, "order": {"asc"}}
	resp, body := f.do(t, http.MethodGet, "/search/issues?"+v.Encode(), "")
	var out searchResult
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatal(err)
		}
	}
	return resp, out
}

func TestSearchPagesAsGitHubDoesUpToAThousandResults(t *testing.T) {
	f := newFixture(t)
	labelled(f, 1050, "clarification:active")
	q := `is:issue is:open label:"clarification:active" repo:octo/widgets`
	resp, res := f.search(t, q, "1", "500")
	if resp.StatusCode != http.StatusOK || res.TotalCount != 1050 || len(res.Items) != 100 ||
		!strings.Contains(resp.Header.Get("Link"), `page=10&per_page=500&q=`) || resp.Header.Get("X-RateLimit-Resource") != "search" {
		t.Fatalf("first page: %d, total %d, %d items, Link %q, resource %q; want 100 of 1050 and a last page of 10",
			resp.StatusCode, res.TotalCount, len(res.Items), resp.Header.Get("Link"), resp.Header.Get("X-RateLimit-Resource"))
	}
	if resp, res := f.search(t, q, "10", "100"); resp.StatusCode != http.StatusOK || len(res.Items) != 100 || strings.Contains(resp.Header.Get("Link"), `rel="next"`) {
		t.Errorf("page 10: %d, %d items, Link %q; want the last 100 of the first 1,000, with no next", resp.StatusCode, len(res.Items), resp.Header.Get("Link"))
	}
	if resp, _ := f.search(t, q, "11", "100"); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("page 11: %d; want 422, only the first 1000 search results are available", resp.StatusCode)
	}
	if resp, _ := f.search(t, "label:x some words", "1", "100"); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a query with text the fake does not search: %d; want 422", resp.StatusCode)
	}
}

func TestSearchAllowsThirtyRequestsAMinute(t *testing.T) {
	f := newFixture(t)
	for i := range SearchPerMinute {
		if resp, _ := f.search(t, "label:x is:open", "1", "100"); resp.StatusCode != http.StatusOK {
			t.Fatalf("search %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, _ := f.search(t, "label:x is:open", "1", "100")
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("search 31 in a minute: %d, remaining %q; want 403 and 0", resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining"))
	}
	f.s.Advance(61e9)
	if resp, _ := f.search(t, "label:x is:open", "1", "100"); resp.StatusCode != http.StatusOK {
		t.Errorf("search after the minute: %d; want 200", resp.StatusCode)
	}
}
