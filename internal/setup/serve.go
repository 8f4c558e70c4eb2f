package setup

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ListenLoopback listens on addr, which must be a loopback address: the page carries the
// state that guards the callback, so it is for this machine's browser only (over SSH,
// forward a local port to it). listen is net.Listen; tests pass their own.
func ListenLoopback(addr string, listen func(network, addr string) (net.Listener, error)) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-listen %q: %w", addr, err)
	}
	if !isLoopback(host) {
		return nil, fmt.Errorf("-listen %q is not a loopback address such as 127.0.0.1:0", addr)
	}
	return listen("tcp", addr)
}

// Run serves the flow's page on ln until the registration has ended or ctx ends, after
// telling announce the page's URL, and returns what was registered and written.
func (f *Flow) Run(ctx context.Context, ln net.Listener, announce func(page string)) (Result, error) {
	srv := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	announce(f.URL())
	select {
	case <-f.Done():
	case <-ctx.Done():
	case err := <-errc:
		return Result{}, err
	}
	// Shutdown lets the page that ended the flow reach the browser first. A browser keeps
	// connections it opened ahead of need, which Shutdown waits on for 5 s; those are cut,
	// as nothing the flow needs is on them.
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = srv.Close()
	}
	res, done, err := f.Outcome()
	switch {
	case !done:
		return res, errors.New("stopped before GitHub sent the browser back: nothing was written")
	case err != nil:
		return res, fmt.Errorf("the app %s is registered (%s) but: %w", res.Slug, res.HTMLURL, err)
	}
	return res, nil
}
