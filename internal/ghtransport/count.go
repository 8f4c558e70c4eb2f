package ghtransport

import (
	"context"
	"net/http"
	"sync/atomic"
)

type budgetKey struct{}

// WithRequestCount returns ctx carrying n, so that every request made with it, whatever
// code makes it, adds one to n (through CountRequests): the sweep's budget per installation.
func WithRequestCount(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, budgetKey{}, n)
}

// CountRequests is a client middleware that counts requests against the count carried in
// the request's context (WithRequestCount); a request without one is not counted, and
// neither is one GitHub answered 304 (the cache's X-From-Cache under alwaysValidate): a
// 304 costs no primary rate limit.
func CountRequests(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if n, ok := r.Context().Value(budgetKey{}).(*atomic.Int64); ok && !Revalidated(resp) {
			n.Add(1)
		}
		return resp, err
	})
}

// Revalidated says whether resp is the cache's copy that GitHub confirmed with a 304. The
// clients validate every cached response (alwaysValidate), so a response from the cache
// always stands for a 304.
func Revalidated(resp *http.Response) bool {
	return resp != nil && resp.Header.Get("X-From-Cache") == "1"
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls the function, so a plain function can be a transport.
func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
