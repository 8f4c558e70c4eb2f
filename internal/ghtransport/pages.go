package ghtransport

import (
	"errors"

	"github.com/google/go-github/v60/github"
)

// AllPages follows GitHub's Link pagination: list fetches one page (0 is the first) and
// the items of every page are returned together. With SomePages, the one place that reads
// NextPage.
func AllPages[T any](list func(page int) ([]T, *github.Response, error)) ([]T, error) {
	return SomePages(0, list)
}

// SomePages is AllPages for at most limit pages (0: no limit): a scan whose cost is bounded
// takes the first pages and leaves the rest.
func SomePages[T any](limit int, list func(page int) ([]T, *github.Response, error)) ([]T, error) {
	var all []T
	for page, read := 0, 1; ; read++ {
		items, resp, err := list(page)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if resp.NextPage == 0 || (limit > 0 && read >= limit) {
			return all, nil
		}
		page = resp.NextPage
	}
}

// IsStatus reports whether err is a GitHub API error with the given HTTP status.
func IsStatus(err error, status int) bool {
	var er *github.ErrorResponse
	return errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == status
}
