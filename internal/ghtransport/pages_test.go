package ghtransport

import (
	"testing"

	"github.com/google/go-github/v60/github"
)

func TestSomePagesStopsAtItsLimit(t *testing.T) {
	var asked []int
	list := func(page int) ([]int, *github.Response, error) {
		asked = append(asked, page)
		next := page + 1
		if page == 0 {
			next = 2
		}
		if next > 5 {
			next = 0
		}
		return []int{page}, &github.Response{NextPage: next}, nil
	}
	got, err := SomePages(3, list)
	if err != nil || len(got) != 3 || len(asked) != 3 {
		t.Fatalf("SomePages(3) = %v, %v after asking for pages %v; want three pages", got, err, asked)
	}
	asked = nil
	if got, _ := AllPages(list); len(got) != 5 || len(asked) != 5 {
		t.Errorf("AllPages = %v after asking for %v; want every page", got, asked)
	}
}
