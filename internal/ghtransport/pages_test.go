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

func TestEachPageStopsWhereItsReaderIsDoneAndGoesOnFromThere(t *testing.T) {
	var asked []int
	list := func(page int) ([]int, *github.Response, error) {
		asked = append(asked, page)
		next := page + 1
		if page == 0 {
			next = 2
		}
		return []int{max(page, 1)}, &github.Response{NextPage: next}, nil
	}
	var seen []int
	resume := 0
	err := EachPage(0, list, func(items []int, next int) bool {
		seen, resume = append(seen, items...), next
		return items[0] < 3
	})
	if err != nil || len(seen) != 3 || len(asked) != 3 || resume != 4 {
		t.Fatalf("EachPage read %v after asking for pages %v (%v), the next %d; want it to stop after page 3, the next 4", seen, asked, err, resume)
	}
	asked = nil
	_ = EachPage(resume, list, func([]int, int) bool { return false })
	if len(asked) != 1 || asked[0] != 4 {
		t.Errorf("EachPage from 4 asked for pages %v; want 4", asked)
	}
}
