package fakegithub

import (
	"math/rand/v2"
	"net/http"
	"strconv"
)

// Chaos makes a share of all requests fail at random, the way GitHub's do: a 500 or 502
// that did nothing, a 502 answered after the request took effect (its answer lost on the
// way), a secondary-limit 403 and a 429, both with Retry-After. Faults queued with
// FailNext come first.
type Chaos struct {
	// Rate is the share of requests that fail, from 0 to 1.
	Rate float64
	// Seed makes a run repeatable.
	Seed uint64
	// RetryAfter is the wait, in seconds, that limits ask for.
	RetryAfter int
}

// Chaos fault kinds, as ChaosCounts names them.
const (
	ChaosServerError = "500"
	ChaosBadGateway  = "502"
	ChaosLostAnswer  = "502 after the write took effect"
	ChaosSecondary   = "403 secondary limit"
	ChaosTooMany     = "429"
	chaosKinds       = 5
)

type chaosState struct {
	Chaos
	rnd    *rand.Rand
	counts map[string]int
}

// SetChaos turns random faults on; a zero Rate turns them off.
func (s *Server) SetChaos(c Chaos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.Rate <= 0 {
		s.chaos = nil
		return
	}
	s.chaos = &chaosState{Chaos: c, rnd: rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15)), counts: map[string]int{}}
}

// ChaosCounts returns how many faults of each kind SetChaos's faults have injected.
func (s *Server) ChaosCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	if s.chaos != nil {
		for k, v := range s.chaos.counts {
			out[k] = v
		}
	}
	return out
}

// chaosFaultLocked draws whether this request fails, and how.
func (s *Server) chaosFaultLocked() *fault {
	c := s.chaos
	if c == nil || c.rnd.Float64() >= c.Rate {
		return nil
	}
	var f *fault
	var kind string
	switch c.rnd.IntN(chaosKinds) {
	case 0:
		f, kind = &fault{status: http.StatusInternalServerError}, ChaosServerError
	case 1:
		f, kind = &fault{status: http.StatusBadGateway}, ChaosBadGateway
	case 2:
		f, kind = &fault{status: http.StatusBadGateway, applied: true}, ChaosLostAnswer
	case 3:
		f, kind = &fault{status: http.StatusForbidden, retryAfter: max(c.RetryAfter, 0), secondary: true}, ChaosSecondary
	default:
		f, kind = &fault{status: http.StatusTooManyRequests, retryAfter: max(c.RetryAfter, 0), secondary: true}, ChaosTooMany
	}
	c.counts[kind]++
	return f
}

// secondaryLimitReply is GitHub's answer to a burst: a 403 (or 429) naming the secondary
// limit, with Retry-After and the primary quota left untouched.
// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
func secondaryLimitReply(status, retryAfter int) reply {
	rep := errorReply(status, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
		"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits")
	rep.header = http.Header{}
	rep.header.Set("Retry-After", strconv.Itoa(retryAfter))
	return rep
}
