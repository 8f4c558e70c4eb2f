package handlers

import (
	"context"
	"sync"
	"time"
)

// IssueLocks serialises the work on one issue: GitHub offers no compare-and-swap on comment
// edits, so two handlers writing one status comment at once would lose an update. Within
// this process a lock per issue does it; Shared, when set, makes the other replicas wait too.
type IssueLocks struct {
	// Shared is taken after this process's own lock, so that one replica's runs of an issue
	// queue here rather than each polling the shared lease.
	Shared IssueLocker

	mu    sync.Mutex
	locks map[string]*issueLock
}

var _ IssueLocker = (*IssueLocks)(nil)

// issueLock is a lock that a waiter can give up on when its context ends.
type issueLock struct {
	held  chan struct{}
	users int
}

// Lock takes the lock of one issue key (owner/repo#number) and returns its unlock function.
func (l *IssueLocks) Lock(ctx context.Context, key string) (unlock func(), err error) {
	local, err := l.lockLocal(ctx, key)
	if err != nil {
		return nil, err
	}
	if l.Shared == nil {
		return local, nil
	}
	shared, err := l.Shared.Lock(ctx, key)
	if err != nil {
		local()
		return nil, err
	}
	return func() {
		shared()
		local()
	}, nil
}

func (l *IssueLocks) lockLocal(ctx context.Context, key string) (func(), error) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[string]*issueLock{}
	}
	lk := l.locks[key]
	if lk == nil {
		lk = &issueLock{held: make(chan struct{}, 1)}
		l.locks[key] = lk
	}
	lk.users++
	l.mu.Unlock()

	release := func() {
		l.mu.Lock()
		lk.users--
		if lk.users == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
	select {
	case lk.held <- struct{}{}:
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
	return func() {
		<-lk.held
		release()
	}, nil
}

// LocalSweepLease is the SweepLease of a single process: one sweep at a time within it.
type LocalSweepLease struct {
	mu sync.Mutex
}

var _ SweepLease = (*LocalSweepLease)(nil)

// Acquire takes the lease if no sweep of this process holds it; hold is moot for one
// process, whose single ticker spaces its sweeps.
func (l *LocalSweepLease) Acquire(_ context.Context, _ time.Duration) (func(), bool, error) {
	if !l.mu.TryLock() {
		return nil, false, nil
	}
	return l.mu.Unlock, true, nil
}
