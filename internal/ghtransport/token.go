package ghtransport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/gregjones/httpcache"
)

// TokenClient is a REST client for api (github.v3_api_url's form), authenticated with
// token when it is not empty: bot ledger and bot stats read with a person's token.
func TokenClient(api, token string) (*github.Client, error) {
	return tokenClient(api, token, nil)
}

// ConditionalTokenClient is TokenClient for a reader that reads the same pages again and
// again (the asker's wait): every GET carries the ETag of its last answer (If-None-Match),
// so a page that did not change costs a 304, which GitHub does not count against the
// primary rate limit, and is answered from memory; faults and rate limits are retried as
// the app's requests are (RetryTransient). rt is the transport under it (nil: Go's default).
// https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate
func ConditionalTokenClient(api, token string, rt http.RoundTripper) (*github.Client, error) {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return tokenClient(api, token, noStore(&httpcache.Transport{
		Transport: alwaysValidate(RetryTransient(RetryOptions{})(rt)), Cache: NewHTTPCache(), MarkCachedResponses: true,
	}))
}

type noStoreKey struct{}

// WithoutStore returns ctx whose GETs a ConditionalTokenClient does not keep: a read made
// once (the pages listed to find a comment) would only fill its memory, megabytes on a
// long issue, with answers it never asks for again.
func WithoutStore(ctx context.Context) context.Context {
	return context.WithValue(ctx, noStoreKey{}, true)
}

// noStore asks the cache under it not to keep the answers to requests made WithoutStore
// (Cache-Control: no-store, which httpcache honours in a request as in a response).
func noStore(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if r.Context().Value(noStoreKey{}) != nil {
			r = r.Clone(r.Context())
			r.Header.Set("Cache-Control", "no-store")
		}
		return next.RoundTrip(r)
	})
}

var maxAge = regexp.MustCompile(`max-age=\d+`)

// alwaysValidate makes every cached answer stale at once (max-age=0), so that the cache
// never answers without asking GitHub: GitHub lets a page be kept 60 s, and a reader
// waiting for a change must not be 60 s late. As go-githubapp's caching clients do.
func alwaysValidate(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if resp != nil {
			if cc := resp.Header.Get("Cache-Control"); cc != "" {
				resp.Header.Set("Cache-Control", maxAge.ReplaceAllString(cc, "max-age=0"))
			}
		}
		return resp, err
	})
}

func tokenClient(api, token string, rt http.RoundTripper) (*github.Client, error) {
	client := github.NewClient(&http.Client{Timeout: time.Minute, Transport: rt})
	if token != "" {
		client = client.WithAuthToken(token)
	}
	// As github.v3_api_url: the URL as given (GitHub Enterprise Server: https://HOST/api/v3/).
	base, err := url.Parse(strings.TrimSuffix(api, "/") + "/")
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("-api %q: not a URL", api)
	}
	client.BaseURL = base
	return client, nil
}

// TokenHint says what to do about a refusal that reading without a token explains
// (tokenSet false), for the commands that read with a person's GITHUB_TOKEN.
func TokenHint(err error, tokenSet bool) string {
	var er *github.ErrorResponse
	if tokenSet || !errors.As(err, &er) || er.Response == nil {
		return ""
	}
	switch er.Response.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return " (GITHUB_TOKEN is not set: a private repository needs a token that can read its issues)"
	}
	return ""
}
