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
// the request's context (WithRequestCount); a request without one is not counted.
func CountRequests(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if n, ok := r.Context().Value(budgetKey{}).(*atomic.Int64); ok {
			n.Add(1)
		}
		return next.RoundTrip(r)
	})
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls the function, so a plain function can be a transport.
func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
