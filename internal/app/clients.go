package app

import (
	"time"

	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/internal/ghtransport"
)

// clientTimeout covers a request and its retries, with room for a secondary limit's
// minute-long wait.
const clientTimeout = 2 * time.Minute

// Clients is how NewClientCreator builds the app's GitHub clients.
type Clients struct {
	// Retry tunes the retries of every client.
	Retry ghtransport.RetryOptions
	// Pacer paces every client's requests; one for all clients, since go-githubapp builds
	// a client's middleware per client.
	Pacer *ghtransport.Pacer
	// Inner, if set, is the innermost middleware (the metrics), so that it sees each
	// request that reaches GitHub.
	Inner githubapp.ClientMiddleware
}

// NewClientCreator returns the app's client creator: caching clients whose requests are
// retried, counted, paced, then handed to c.Inner.
func NewClientCreator(cfg githubapp.Config, c Clients) (githubapp.ClientCreator, error) {
	// Retry outermost, so that every attempt counts against the sweep's budget and every
	// write sent again is paced.
	mw := []githubapp.ClientMiddleware{ghtransport.RetryTransient(c.Retry), ghtransport.CountRequests, ghtransport.NoteWrites, c.Pacer.Middleware()}
	if c.Inner != nil {
		mw = append(mw, c.Inner)
	}
	return githubapp.NewDefaultCachingClientCreator(cfg,
		githubapp.WithClientUserAgent("clarify-app"),
		githubapp.WithClientTimeout(clientTimeout),
		// alwaysValidate: a cached ledger must never be trusted without asking GitHub.
		githubapp.WithClientCaching(true, ghtransport.NewHTTPCache),
		githubapp.WithClientMiddleware(mw...),
	)
}
