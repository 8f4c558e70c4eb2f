package fakegithub

// beforeHook is something people do on GitHub when the app's next request of a route
// arrives, or, after, once it is served.
type beforeHook struct {
	route string
	fn    func()
	after bool
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

// AfterNext has fn run once the next request matching the route template is served, before
// the app reads the answer: what people do on GitHub the moment one of the app's writes
// lands (a reply typed as soon as the round asking it appears), while the run goes on.
func (s *Server) AfterNext(route string, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.before = append(s.before, beforeHook{route: route, fn: fn, after: true})
}

// takeBefore removes and returns the first hook waiting for the route rt, before or after
// it is served, nil when none (or rt is nil: an unhandled request).
func (s *Server) takeBefore(rt *route, after bool) func() {
	if rt == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, h := range s.before {
		if h.route == rt.template && h.after == after {
			s.before = append(s.before[:i], s.before[i+1:]...)
			return h.fn
		}
	}
	return nil
}
