package ghtransport

import (
	"errors"

	"github.com/google/go-github/v60/github"
)

// AllPages follows GitHub's Link pagination: list fetches one page (0 is the first) and
// the items of every page are returned together. With SomePages and EachPage, the one
// place that reads NextPage.
func AllPages[T any](list func(page int) ([]T, *github.Response, error)) ([]T, error) {
	return SomePages(0, list)
}

// SomePages is AllPages for at most limit pages (0: no limit): a scan whose cost is bounded
// takes the first pages and leaves the rest.
func SomePages[T any](limit int, list func(page int) ([]T, *github.Response, error)) ([]T, error) {
	var all []T
	read := 0
	err := EachPage(0, list, func(items []T, _ int) bool {
		all = append(all, items...)
		read++
		return limit <= 0 || read < limit
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// EachPage hands each page's items to each, in order, from page from (0: the first), with
// the page after it (0: none), until each returns false or the last page: a reader that
// keeps little of each page (the asker's client, looking for one comment in an issue of
// megabytes) holds one page at a time, stops where it found what it looks for, and can
// go on later from where it stopped.
func EachPage[T any](from int, list func(page int) ([]T, *github.Response, error), each func(items []T, next int) (more bool)) error {
	for page := from; ; {
		items, resp, err := list(page)
		if err != nil {
			return err
		}
		if !each(items, resp.NextPage) || resp.NextPage == 0 {
			return nil
		}
		page = resp.NextPage
	}
}

// IsStatus reports whether err is a GitHub API error with the given HTTP status.
func IsStatus(err error, status int) bool {
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == status
}
