package handlers

import (
	"context"
	"sync"
	"time"
)

// IssueLocker serialises the runs of one issue key (owner/repo#number) beyond this process:
// replicas behind one webhook URL share one through Redis.
type IssueLocker interface {
	// Lock waits until the issue is free or ctx ends, and returns the function that frees it.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

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

// SweepLease lets one sweep run at a time across replicas: two sweeps at once would visit
// the same issues twice, spending requests for nothing.
type SweepLease interface {
	// Acquire takes the lease unless another holder has it (ok false). Once taken, the lease
	// is kept while the holder works and for at least hold from now, so that replicas whose
	// tickers fall close together sweep once an interval between them; release ends the
	// holder's part.
	Acquire(ctx context.Context, hold time.Duration) (release func(), ok bool, err error)
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
