package fakegithub

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// ContentLimit is GitHub's secondary limit on content-creating requests: at most
// PerMinute in any minute and PerHour in any hour, per installation, counted when each
// write arrives. GitHub does not say which writes count, so every installation write but
// a token exchange does. Minute is how long a minute lasts on the real clock (a harness
// shortens it); an hour is 60.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
type ContentLimit struct {
	PerMinute, PerHour int
	Minute             time.Duration
	// Transit, if set, is the way to GitHub: each write arrives (and is counted) either at
	// once or Transit after it was sent, half of them each, drawn at random (a connection
	// free, or stalled behind a busy transport), so that writes sent together arrive apart.
	Transit time.Duration
}

// ContentWindow counts writes as GitHub's content limit does, per installation, when
// they arrive; the in-memory GitHub keeps one, and tests that play a client against
// GitHub's counting use one of their own. It is not safe for concurrent use.
type ContentWindow struct {
	Limit ContentLimit
	// Refused counts the writes refused.
	Refused int
	sent    map[int64][]time.Time
}

// Arrive counts a write of installation inst arriving at now. One past a limit is
// refused and not counted: ok is false, and retryAfter the seconds until a place is free.
func (c *ContentWindow) Arrive(inst int64, now time.Time) (retryAfter int, ok bool) {
	lim := c.Limit
	if c.sent == nil {
		c.sent = map[int64][]time.Time{}
	}
	sent := c.sent[inst]
	for len(sent) > 0 && !sent[0].After(now.Add(-60*lim.Minute)) {
		sent = sent[1:]
	}
	c.sent[inst] = sent
	var free time.Time
	if n := countAfter(sent, now.Add(-lim.Minute)); lim.PerMinute > 0 && n >= lim.PerMinute {
		free = sent[len(sent)-lim.PerMinute].Add(lim.Minute)
	}
	if lim.PerHour > 0 && len(sent) >= lim.PerHour {
		if f := sent[len(sent)-lim.PerHour].Add(60 * lim.Minute); f.After(free) {
			free = f
		}
	}
	if !free.IsZero() {
		c.Refused++
		return int(free.Sub(now)/time.Second) + 1, false
	}
	c.sent[inst] = append(sent, now)
	return 0, true
}

// SetContentLimit enforces lim from now on; a zero PerMinute turns it off.
func (s *Server) SetContentLimit(lim ContentLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lim.Minute <= 0 {
		lim.Minute = time.Minute
	}
	s.content = ContentWindow{Limit: lim}
	s.transitRand = rand.New(rand.NewPCG(42, 42))
}

// ContentRefusals counts the writes refused for the content limit.
func (s *Server) ContentRefusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.content.Refused
}

// contentWrite reports whether r is a request the content limit counts, when it is sent
// by an installation.
func contentWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.Method != http.MethodHead && !strings.HasSuffix(r.URL.Path, "/access_tokens")
}

// transit is how long a write takes to arrive under the content limit's Transit.
func (s *Server) transit(r *http.Request) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.content.Limit.Transit <= 0 || !contentWrite(r) || s.transitRand.IntN(2) == 0 {
		return 0
	}
	return s.content.Limit.Transit
}

// contentFaultLocked refuses a write past the limit, as a secondary limit naming when to
// come back; a write let through is counted.
func (s *Server) contentFaultLocked(r *http.Request, inst int64) *fault {
	if s.content.Limit.PerMinute <= 0 || inst == 0 || !contentWrite(r) {
		return nil
	}
	if secs, ok := s.content.Arrive(inst, time.Now()); !ok {
		return &fault{status: http.StatusForbidden, secondary: true, retryAfter: secs}
	}
	return nil
}

func countAfter(ts []time.Time, cut time.Time) int {
	n := 0
	for _, t := range ts {
		if t.After(cut) {
			n++
		}
	}
	return n
}
