package app_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/app"
)

// These tests run the app behind the server serve runs (app.NewServer), on a real socket,
// and send requests by hand: the point is what reaches the server before a body is whole.

// listenAndServe serves srv on a loopback port until the test ends and returns its address.
func listenAndServe(t *testing.T, srv *http.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// openPost sends a delivery's headers, declaring length bytes of body (-1: chunked, no
// length), and the first bytes of the body; the rest is up to the test.
func openPost(t *testing.T, addr string, length int64, first string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	framing := fmt.Sprintf("Content-Length: %d", length)
	if length < 0 {
		framing = "Transfer-Encoding: chunked"
	}
	_, err = fmt.Fprintf(c, "POST /api/github/hook HTTP/1.1\r\nHost: clarify.test\r\nContent-Type: application/json\r\n"+
		"X-GitHub-Event: issue_comment\r\nX-GitHub-Delivery: by-hand\r\nX-Hub-Signature-256: sha256=%s\r\n%s\r\n\r\n%s",
		strings.Repeat("0", 64), framing, first)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readResponse reads the server's answer on c, giving up after 5 s.
func readResponse(t *testing.T, c net.Conn) *http.Response {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer within 5 s: %v", err)
	}
	resp.Body.Close()
	return resp
}

// assertClosed fails unless the server closes c within 5 s.
func assertClosed(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the server still held the connection after 5 s")
	}
}

// TestStalledAndTricklingBodiesAreCutOff: a body that stops coming, or comes a byte at a
// time, has its connection closed at the server's read timeout, and gives back its room.
func TestStalledAndTricklingBodiesAreCutOff(t *testing.T) {
	h := newHarness(t)
	srv := app.NewServer(h.Config, h.App.Handler)
	srv.ReadTimeout = 200 * time.Millisecond
	addr := listenAndServe(t, srv)

	for name, trickle := range map[string]bool{"stalled": false, "trickling": true} {
		t.Run(name, func(t *testing.T) {
			c := openPost(t, addr, 64<<10, `{"action":`)
			var sender sync.WaitGroup
			if trickle {
				sender.Go(func() {
					for {
						time.Sleep(20 * time.Millisecond)
						if _, err := c.Write([]byte(" ")); err != nil {
							return // the server closed it
						}
					}
				})
			}
			if resp := readResponse(t, c); resp.StatusCode != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", resp.StatusCode)
			}
			assertClosed(t, c)
			c.Close()
			sender.Wait()
			if held := h.App.Bodies.Held(); held != 0 {
				t.Errorf("%d bytes still held for a body the server gave up on", held)
			}
		})
	}
}

// TestDeliveriesRefusedBeforeTheirBodyIsRead: what cannot be a GitHub delivery is answered
// from its headers alone, so it holds nothing.
func TestDeliveriesRefusedBeforeTheirBodyIsRead(t *testing.T) {
	h := newHarness(t)
	addr := listenAndServe(t, app.NewServer(h.Config, h.App.Handler))
	for name, tc := range map[string]struct {
		length int64
		want   int
	}{
		"withoutContentLength":  {-1, http.StatusLengthRequired},
		"overGitHubsPayloadCap": {app.MaxWebhookBody + 1, http.StatusRequestEntityTooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			c := openPost(t, addr, tc.length, "")
			if resp := readResponse(t, c); resp.StatusCode != tc.want {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.want)
			}
			if peak := h.App.Bodies.Peak(); peak != 0 {
				t.Errorf("%d bytes were reserved for a body refused from its headers", peak)
			}
		})
	}
}
