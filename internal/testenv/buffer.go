package testenv

import (
	"bytes"
	"sync"
)

// Buffer is a buffer that goroutines under test (a server's logs, a process's output) and
// the test itself may write and read at once, under the race detector.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
