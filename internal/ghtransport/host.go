package ghtransport

import (
	"fmt"
	"net/url"
	"strings"
)

// A token is for one GitHub host, and goes only to that host's REST API: github.com's
// token to api.github.com, a GitHub Enterprise Server's to https://HOST/api/v3/, a GitHub
// Enterprise Cloud (data residency, *.ghe.com) tenant's to https://api.HOST/. These two
// functions are the one mapping between a host and its API, as gh maps them.
// https://docs.github.com/en/enterprise-server@latest/rest/quickstart
// https://docs.github.com/en/enterprise-cloud@latest/admin/data-residency/network-details-for-ghecom

// APIOf is the REST API URL of a GitHub host (any case, a port kept).
func APIOf(host string) string {
	switch h := NormalHost(host); {
	case h == "github.com":
		return DefaultAPIURL
	case strings.HasSuffix(h, ".ghe.com"):
		return "https://api." + h + "/"
	default:
		return "https://" + h + "/api/v3/"
	}
}

// HostOfAPI is the GitHub host whose REST API is at api: github.com for api.github.com, HOST
// for https://api.HOST/ of a *.ghe.com tenant and for https://HOST/api/v3/, and the URL's
// own host (with its port) for any other.
func HostOfAPI(api string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(api))
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is no URL of a GitHub API", api)
	}
	h := NormalHost(u.Host)
	switch {
	case h == "api.github.com":
		return "github.com", nil
	case strings.HasPrefix(h, "api.") && strings.HasSuffix(h, ".ghe.com"):
		return strings.TrimPrefix(h, "api."), nil
	}
	return h, nil
}

// NormalHost is a host as hosts are compared: lower case, github.com for its subdomains
// (www.github.com, as gh takes them).
func NormalHost(host string) string {
	h := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(host), "."))
	if strings.HasSuffix(h, ".github.com") && h != "api.github.com" {
		return "github.com"
	}
	return h
}
