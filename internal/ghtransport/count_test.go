package ghtransport

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/gregjones/httpcache"
)

// TestCountRequestsLeavesOut304s reads one resource three times through a validating
// cache, as the app's clients do: the first read is counted, the two GitHub answers 304
// are not (they cost no rate limit), and a read after the resource changed is again.
func TestCountRequestsLeavesOut304s(t *testing.T) {
	body := "one"
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		etag := `W/"` + body + `"`
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", "private, max-age=0")
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, body)
	}))
	defer gh.Close()
	cached := &httpcache.Transport{Transport: http.DefaultTransport, Cache: NewHTTPCache(), MarkCachedResponses: true}
	client := &http.Client{Transport: CountRequests(cached)}
	var n atomic.Int64
	ctx := WithRequestCount(context.Background(), &n)
	read := func() string {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, gh.URL+"/repos/o/r/issues/1/comments", nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for range 3 {
		if got := read(); got != "one" {
			t.Fatalf("read %q, want one", got)
		}
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests counted for one 200 and two 304s, want 1", got)
	}
	body = "two"
	if got := read(); got != "two" {
		t.Fatalf("read %q after a change, want two: the cache served a stale copy", got)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("%d requests counted after a changed read, want 2", got)
	}
}
