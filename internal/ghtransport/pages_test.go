package ghtransport

import (
	"slices"
	"testing"

	"github.com/google/go-github/v60/github"
)

// TestPagesFollowNextPageAndStopAtTheLimit: AllPages reads every page GitHub links to;
// FirstPages stops after its limit, asking for no page beyond it.
func TestPagesFollowNextPageAndStopAtTheLimit(t *testing.T) {
	var asked []int
	list := func(page int) ([]int, *github.Response, error) {
		asked = append(asked, page)
		n := max(page, 1)
		next := 0
		if n < 4 {
			next = n + 1
		}
		return []int{n}, &github.Response{NextPage: next}, nil
	}
	all, err := AllPages(list)
	if err != nil || !slices.Equal(all, []int{1, 2, 3, 4}) || !slices.Equal(asked, []int{0, 2, 3, 4}) {
		t.Errorf("AllPages = %v, %v after asking %v; want [1 2 3 4] after [0 2 3 4]", all, err, asked)
	}
	asked = nil
	first, err := FirstPages(2, list)
	if err != nil || !slices.Equal(first, []int{1, 2}) || !slices.Equal(asked, []int{0, 2}) {
		t.Errorf("FirstPages(2) = %v, %v after asking %v; want [1 2] after [0 2]", first, err, asked)
	}
}
