package ghtransport

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestTheWriteClockKeepsGitHubsTimeOfTheLastAcceptedWrite: the clock takes the Date of
// each write GitHub accepted, never a read's, a refusal's or a write made without it.
func TestTheWriteClockKeepsGitHubsTimeOfTheLastAcceptedWrite(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", at.Format(http.TimeFormat))
		w.WriteHeader(status)
	}))
	defer srv.Close()
	client := &http.Client{Transport: NoteWrites(http.DefaultTransport)}
	ctx, clock := WithWriteClock(context.Background())
	send := func(ctx context.Context, method string) {
		req, _ := http.NewRequestWithContext(ctx, method, srv.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send(ctx, http.MethodPatch)
	if got := clock.Last(); !got.Equal(at) {
		t.Fatalf("after a write, the clock reads %v, want GitHub's %v", got, at)
	}
	at = at.Add(time.Minute)
	send(ctx, http.MethodGet)
	send(context.Background(), http.MethodPost)
	status = http.StatusForbidden
	send(ctx, http.MethodPost)
	if got := clock.Last(); !got.Equal(at.Add(-time.Minute)) {
		t.Errorf("a read, a write without the clock and a refusal moved it to %v", got)
	}
	status = http.StatusCreated
	send(ctx, http.MethodDelete)
	if got := clock.Last(); !got.Equal(at) {
		t.Errorf("a later accepted write left the clock at %v, want %v", got, at)
	}
}
