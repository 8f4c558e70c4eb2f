package fakegithub

import (
	"net/http"
	"strings"
	"time"
)

// ContentLimit is GitHub's secondary limit on content-creating requests: at most
// PerMinute in any minute and PerHour in any hour, per installation. GitHub does not say
// which writes count, so every installation write but a token exchange does. Minute is
// how long a minute lasts on the real clock (a harness shortens it); an hour is 60.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
type ContentLimit struct {
	PerMinute, PerHour int
	Minute             time.Duration
}

// SetContentLimit enforces lim from now on; a zero PerMinute turns it off.
func (s *Server) SetContentLimit(lim ContentLimit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lim.Minute <= 0 {
		lim.Minute = time.Minute
	}
	s.contentLimit = lim
	s.contentSent = map[int64][]time.Time{}
}

// ContentRefusals counts the writes refused for the content limit.
func (s *Server) ContentRefusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contentRefused
}

// contentFaultLocked refuses a write past the limit, as a secondary limit naming when to
// come back; a write let through is counted.
func (s *Server) contentFaultLocked(r *http.Request, inst int64) *fault {
	lim := s.contentLimit
	if lim.PerMinute <= 0 || inst == 0 || r.Method == http.MethodGet || r.Method == http.MethodHead ||
		strings.HasSuffix(r.URL.Path, "/access_tokens") {
		return nil
	}
	now := time.Now()
	sent := s.contentSent[inst]
	for len(sent) > 0 && !sent[0].After(now.Add(-60*lim.Minute)) {
		sent = sent[1:]
	}
	var free time.Time
	if n := countAfter(sent, now.Add(-lim.Minute)); n >= lim.PerMinute {
		free = sent[len(sent)-lim.PerMinute].Add(lim.Minute)
	}
	if lim.PerHour > 0 && len(sent) >= lim.PerHour {
		if f := sent[len(sent)-lim.PerHour].Add(60 * lim.Minute); f.After(free) {
			free = f
		}
	}
	if !free.IsZero() {
		s.contentSent[inst] = sent
		s.contentRefused++
		secs := int(free.Sub(now)/time.Second) + 1
		return &fault{status: http.StatusForbidden, secondary: true, retryAfter: secs}
	}
	s.contentSent[inst] = append(sent, now)
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
