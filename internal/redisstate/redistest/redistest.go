// Package redistest starts a throwaway redis-server for tests: on loopback, on a free
// port, with nothing written to disk, stopped when the test ends.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clarify-app/clarify/internal/testenv"
)

// Server is a running redis-server.
type Server struct {
	// Addr is host:port on loopback; URL is redis://Addr.
	Addr, URL string

	t      testing.TB
	bin    string
	port   int
	cmd    *exec.Cmd
	exited chan error
}

// Start starts a redis-server for the test. Without the binary the test fails when CI is
// set (CI installs it: .ci/run) and is skipped otherwise, saying how to install it.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := testenv.LookPath(t, "redis-server is not installed (Debian: apt-get install -y redis-server; .ci/run installs it)", "redis-server")
	// A free port can be taken by someone else between here and the server's bind: a few
	// tries make that harmless.
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		s := &Server{t: t, bin: bin, port: port}
		if lastErr = s.start(); lastErr == nil {
			t.Cleanup(s.Stop)
			return s
		}
	}
	t.Fatalf("redis-server did not start: %v", lastErr)
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) start() error {
	dir := s.t.TempDir()
	logPath := filepath.Join(dir, "redis.log")
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", dir, "--logfile", logPath, "--daemonize", "no")
	if err := cmd.Start(); err != nil {
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for !ping(addr) {
		select {
		case err := <-exited:
			b, _ := os.ReadFile(logPath)
			return fmt.Errorf("redis-server exited (%v): %s", err, lastLines(string(b), 5))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return fmt.Errorf("redis-server did not answer on %s within 10s", addr)
		}
	}
	s.Addr, s.URL, s.cmd, s.exited = addr, "redis://"+addr, cmd, exited
	return nil
}

// Stop kills the server at once, as a crash or a lost network would, for tests of what
// the app does without Redis; the test's end stops it too.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again on the same port, empty, as a Redis that came back
// after an outage without persistence would.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	if err := s.start(); err != nil {
		s.t.Fatalf("redis-server did not start again: %v", err)
	}
}

// ping sends PING the way redis-cli would and reports whether PONG came back.
func ping(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
