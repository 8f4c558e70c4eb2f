package handlers

import "sync"

// IssueLocks serialises the work on one issue: GitHub offers no compare-and-swap on comment
// edits, so two handlers writing one status comment at once would lose an update.
type IssueLocks struct {
	mu    sync.Mutex
	locks map[string]*issueLock
}

type issueLock struct {
	sync.Mutex
	users int
}

// Lock takes the lock of one issue key (owner/repo#number) and returns its unlock function.
func (l *IssueLocks) Lock(key string) (unlock func()) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*issueLock{}
	}
	lk := l.locks[key]
	if lk == nil {
		lk = &issueLock{}
		l.locks[key] = lk
	}
	lk.users++
	l.mu.Unlock()

	lk.Lock()
	return func() {
		lk.Unlock()
		l.mu.Lock()
		lk.users--
		if lk.users == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
}
