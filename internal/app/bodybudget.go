package app

import (
	"crypto/hmac"
	"hash"
	"io"
	"net/http"
	"sync"
	"time"
)

// Defaults of BodyBudget's pace: GitHub sends a delivery at once, from a data centre; a
// body that has not begun within the grace, or falls below the rate after it, is not
// GitHub's to wait for.
const (
	// DefaultBodyGrace is how long a body may take to begin.
	DefaultBodyGrace = 5 * time.Second
	// DefaultBodyMinRate is the bytes a second a body must keep up after the grace.
	DefaultBodyMinRate = 32 << 10
	// bodyChunk is the unit in which a body's room is taken as its bytes arrive: what a
	// stalled connection holds at most.
	bodyChunk = 32 << 10
)

// BodyBudget bounds the bytes held, all connections together, for delivery bodies whose
// signature is not checked yet. It counts what arrived, chunk by chunk, not what a client
// announced; when it is spent, the body in flight furthest behind its pace is dropped for
// the newcomer, or the newcomer refused while every other body is still within its grace.
type BodyBudget struct {
	// Grace and MinRate hold each body to a pace (defaults DefaultBodyGrace and
	// DefaultBodyMinRate); tests shorten them.
	Grace   time.Duration
	MinRate int64

	mu      sync.Mutex
	max     int64
	held    int64
	peak    int64
	dropped int
	reading map[*bodyRead]struct{}
}

// bodyRead is one body in flight.
type bodyRead struct {
	start time.Time
	held  int64 // bytes of room taken
	got   int64 // bytes arrived
	gone  bool  // dropped for another: its room is given back already
	stop  func()
}

// NewBodyBudget returns a budget of limit bytes.
func NewBodyBudget(limit int64) *BodyBudget {
	return &BodyBudget{max: limit, reading: map[*bodyRead]struct{}{}}
}

// Held is the bytes held now.
func (b *BodyBudget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// Peak is the most ever held at once: what shows that the bound held.
func (b *BodyBudget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// Max is the budget's bound.
func (b *BodyBudget) Max() int64 { return b.max }

// Dropped counts the bodies dropped to make room for others.
func (b *BodyBudget) Dropped() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// read reads r's body of n bytes chunk by chunk within the budget and the pace, feeding
// mac, and reports whether mac matches sig. A body that stalls, falls behind the pace or
// ends early is an error; one dropped for another is errDropped.
func (b *BodyBudget) read(w http.ResponseWriter, r *http.Request, n int64, mac hash.Hash, sig []byte) (io.Reader, bool, error) {
	rc := http.NewResponseController(w)
	br := b.begin(func() { _ = rc.SetReadDeadline(time.Unix(1, 0)) })
	defer b.end(br)
	// The server's own bound on the whole request still stands; the pace only shortens it.
	var bound time.Time
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 {
		bound = br.start.Add(srv.ReadTimeout)
	}
	var chunks [][]byte
	for got := int64(0); got < n; {
		size := min(bodyChunk, n-got)
		if !b.grow(br, size) {
			return nil, false, errDropped
		}
		chunk := make([]byte, size)
		deadline := b.deadline(br.start, got+size)
		if !bound.IsZero() && bound.Before(deadline) {
			deadline = bound
		}
		// The deadline first, then the check: a drop between the two still ends the read.
		_ = rc.SetReadDeadline(deadline)
		if b.isGone(br) {
			return nil, false, errDropped
		}
		k, err := io.ReadFull(r.Body, chunk)
		b.arrived(br, int64(k))
		if err != nil {
			if b.isGone(br) {
				return nil, false, errDropped
			}
			return nil, false, err
		}
		mac.Write(chunk)
		chunks = append(chunks, chunk)
		got += size
	}
	// The body is whole: the rest of the request is the server's to bound.
	_ = rc.SetReadDeadline(bound)
	return chunkedBody(chunks), hmac.Equal(mac.Sum(nil), sig), nil
}

// deadline is when a body begun at start must have delivered upTo bytes.
func (b *BodyBudget) deadline(start time.Time, upTo int64) time.Time {
	rate := b.MinRate
	if rate <= 0 {
		rate = DefaultBodyMinRate
	}
	return start.Add(b.grace() + time.Duration(float64(upTo)/float64(rate)*float64(time.Second)))
}

// grace is how long a body may take to begin.
func (b *BodyBudget) grace() time.Duration {
	if b.Grace <= 0 {
		return DefaultBodyGrace
	}
	return b.Grace
}

func (b *BodyBudget) begin(stop func()) *bodyRead {
	br := &bodyRead{start: time.Now(), stop: stop}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reading[br] = struct{}{}
	return br
}

func (b *BodyBudget) end(br *bodyRead) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held -= br.held
	br.held = 0
	delete(b.reading, br)
}

func (b *BodyBudget) arrived(br *bodyRead, k int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	br.got += k
}

func (b *BodyBudget) isGone(br *bodyRead) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return br.gone
}

// grow takes size more bytes for br, dropping the bodies furthest behind their pace while
// they do not fit. It fails for a body that was itself dropped, or when no other body may
// be dropped (all still within their grace): then the newcomer is the one refused.
func (b *BodyBudget) grow(br *bodyRead, size int64) bool {
	b.mu.Lock()
	var stops []func()
	defer func() {
		b.mu.Unlock()
		// Outside the lock: each ends a read on another connection.
		for _, stop := range stops {
			stop()
		}
	}()
	if br.gone {
		return false
	}
	now := time.Now()
	for b.held+size > b.max {
		victim := b.mostBehind(br, now)
		if victim == nil {
			return false
		}
		victim.gone = true
		b.held -= victim.held
		victim.held = 0
		b.dropped++
		stops = append(stops, victim.stop)
	}
	br.held += size
	b.held += size
	b.peak = max(b.peak, b.held)
	return true
}

// mostBehind is the body in flight, other than self, holding room and furthest behind its
// pace (the oldest among equals). A body still within its grace is never chosen: all it
// has had to do yet is begin, so even GitHub's delivery holds room with nothing arrived,
// and ranking by bytes a second would drop it first. A body past its grace that is ahead
// of its pace can still be chosen, last: a sender that ran ahead and stalled is not to
// hold its room until its pace runs out.
func (b *BodyBudget) mostBehind(self *bodyRead, now time.Time) *bodyRead {
	var victim *bodyRead
	var worst time.Duration
	for br := range b.reading {
		if br == self || br.gone || br.held == 0 || now.Before(br.start.Add(b.grace())) {
			continue
		}
		late := now.Sub(b.deadline(br.start, br.got))
		if victim == nil || late > worst || (late == worst && br.start.Before(victim.start)) {
			victim, worst = br, late
		}
	}
	return victim
}
