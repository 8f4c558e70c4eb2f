package fakegithub

import "net/http"

// beforeHook is something people do on GitHub when the app's next request of a route
// arrives.
type beforeHook struct {
	route string
	fn    func()
}

// BeforeNext has fn run when the next request matching the route template arrives, before
// it is served: what people do on GitHub while one of the app's runs is between two of its
// requests (a comment typed, and its delivery built with the issue as it is then). fn may
// call the Server's scripted actions.
func (s *Server) BeforeNext(route string, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.before = append(s.before, beforeHook{route: route, fn: fn})
}

// takeBefore removes and returns the first hook waiting for r's route, nil when none.
func (s *Server) takeBefore(r *http.Request) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.before) == 0 {
		return nil
	}
	rt, _ := s.match(r.Method, r.URL.EscapedPath())
	if rt == nil {
		return nil
	}
	for i, h := range s.before {
		if h.route == rt.template {
			s.before = append(s.before[:i], s.before[i+1:]...)
			return h.fn
		}
	}
	return nil
}
