package ghtransport

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v60/github"
)

// TokenClient is a REST client for api (github.v3_api_url's form), authenticated with
// token when it is not empty: bot ledger and bot stats read with a person's token.
func TokenClient(api, token string) (*github.Client, error) {
	client := github.NewClient(&http.Client{Timeout: time.Minute})
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
