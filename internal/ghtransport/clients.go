package ghtransport

import (
	"net/http"

	"github.com/gregjones/httpcache"
	lru "github.com/hashicorp/golang-lru"
)

// DefaultAPIURL is github.com's REST API, wherever no other is set (GitHub Enterprise
// Server's is https://HOST/api/v3/).
const DefaultAPIURL = "https://api.github.com/"

// Middleware wraps a client's transport: what go-githubapp calls a ClientMiddleware, named
// here so that the asker's client, which builds no App clients, does not link go-githubapp.
type Middleware = func(http.RoundTripper) http.RoundTripper

// cacheEntries bounds each installation client's HTTP cache (go-githubapp keeps 64 clients).
const cacheEntries = 512

// lruCache is a bounded httpcache.Cache, so ETags save rate limit without growing forever.
type lruCache struct{ c *lru.Cache }

// NewHTTPCache is the bounded HTTP cache every client keeps its ETags in.
func NewHTTPCache() httpcache.Cache {
	c, _ := lru.New(cacheEntries) // fails only for a size below 1
	return lruCache{c}
}

// Get returns a cached response, as httpcache.Cache asks.
func (l lruCache) Get(key string) ([]byte, bool) {
	v, ok := l.c.Get(key)
	if !ok {
		return nil, false
	}
	return v.([]byte), true
}

// Set caches a response, evicting the least recently used past the bound.
func (l lruCache) Set(key string, b []byte) { l.c.Add(key, b) }

// Delete drops a cached response.
func (l lruCache) Delete(key string) { l.c.Remove(key) }
