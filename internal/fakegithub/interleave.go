package fakegithub

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

// takeBefore removes and returns the first hook waiting for the route rt, nil when none
// (or rt is nil: an unhandled request).
func (s *Server) takeBefore(rt *route) func() {
	if rt == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, h := range s.before {
		if h.route == rt.template {
			s.before = append(s.before[:i], s.before[i+1:]...)
			return h.fn
		}
	}
	return nil
}
