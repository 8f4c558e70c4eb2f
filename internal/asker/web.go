package asker

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/clarify-app/clarify/clarify"
)

// webOf is the web address of the GitHub whose REST API is api: github.com's for
// api.github.com, https://HOST for GitHub Enterprise Server's https://HOST/api/v3, HOST for
// a data-residency api.HOST; any other API (a test's) serves its own pages.
func webOf(api string) string {
	u, err := url.Parse(strings.TrimSpace(api))
	if err != nil || u.Host == "" {
		return "https://github.com"
	}
	host := u.Host
	if !strings.HasPrefix(u.Path, "/api/v3") {
		host = strings.TrimPrefix(host, "api.")
	}
	return u.Scheme + "://" + host
}

// issueURL is the web page of issue (a pull request's too: GitHub redirects it).
func (c *Client) issueURL(issue clarify.IssueRef) string {
	return fmt.Sprintf("%s/%s/%s/issues/%d", c.web, issue.Owner, issue.Repo, issue.Number)
}
