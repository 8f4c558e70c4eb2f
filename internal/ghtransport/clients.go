package ghtransport

import (
	"time"

	"github.com/gregjones/httpcache"
	lru "github.com/hashicorp/golang-lru"
	"github.com/palantir/go-githubapp/githubapp"
)

// DefaultAPIURL is github.com's REST API, wherever no other is set (GitHub Enterprise
// Server's is https://HOST/api/v3/).
const DefaultAPIURL = "https://api.github.com/"

// cacheEntries bounds each installation client's HTTP cache (go-githubapp keeps 64 clients).
const cacheEntries = 512

// clientTimeout covers a request and its retries, with room for a secondary limit's
// minute-long wait.
const clientTimeout = 2 * time.Minute

// Clients is how NewClientCreator builds the app's GitHub clients.
type Clients struct {
	// Retry tunes the retries of every client.
	Retry RetryOptions
	// Pacer paces every client's requests; one for all clients, since go-githubapp builds
	// a client's middleware per client.
	Pacer *Pacer
	// Inner, if set, is the innermost middleware (the metrics), so that it sees each
	// request that reaches GitHub.
	Inner githubapp.ClientMiddleware
}

// NewClientCreator returns the app's client creator: caching clients whose requests are
// retried, counted, paced, then handed to c.Inner.
func NewClientCreator(cfg githubapp.Config, c Clients) (githubapp.ClientCreator, error) {
	// Retry outermost, so that every attempt counts against the sweep's budget and every
	// write sent again is paced.
	mw := []githubapp.ClientMiddleware{RetryTransient(c.Retry), CountRequests, c.Pacer.Middleware()}
	if c.Inner != nil {
		mw = append(mw, c.Inner)
	}
	return githubapp.NewDefaultCachingClientCreator(cfg,
		githubapp.WithClientUserAgent("clarify-app"),
		githubapp.WithClientTimeout(clientTimeout),
		// alwaysValidate: a cached ledger must never be trusted without asking GitHub.
		githubapp.WithClientCaching(true, newHTTPCache),
		githubapp.WithClientMiddleware(mw...),
	)
}

// lruCache is a bounded httpcache.Cache, so ETags save rate limit without growing forever.
type lruCache struct{ c *lru.Cache }

func newHTTPCache() httpcache.Cache {
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
