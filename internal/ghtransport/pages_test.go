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

func TestEachPageStopsWhereItsReaderIsDone(t *testing.T) {
	var asked []int
	list := func(page int) ([]int, *github.Response, error) {
		asked = append(asked, page)
		return []int{page}, &github.Response{NextPage: page + 1}, nil
	}
	var seen []int
	err := EachPage(list, func(items []int) bool {
		seen = append(seen, items...)
		return items[0] < 2
	})
	if err != nil || len(seen) != 3 || len(asked) != 3 {
		t.Errorf("EachPage read %v after asking for pages %v (%v); want it to stop after page 2", seen, asked, err)
	}
}
