package handlers

import "sync"

// maxRemembered bounds the issues a process remembers; past it, it starts afresh.
const maxRemembered = 10_000

// memory is a per-issue map a process keeps between runs. It is bounded: past
// maxRemembered issues it starts afresh, which costs what a restart costs, no more.
type memory[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

func (m *memory[V]) get(key string) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

func (m *memory[V]) put(key string, v V) {
	m.update(key, func(V) V { return v })
}

// update replaces the value with f of the old one (the zero value when there is
// none) and returns what it was.
func (m *memory[V]) update(key string, f func(old V) V) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= maxRemembered {
		m.m = map[string]V{}
	}
	old := m.m[key]
	m.m[key] = f(old)
	return old
}

func (m *memory[V]) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
}
