package handlers

import (
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/checks"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/ledger"
)

// maxRemembered bounds the keys a cache holds; past it, it starts afresh.
const maxRemembered = 10_000

// caches are what a process remembers between runs, in one place: each is a cache, so
// each is bounded the same way and none outlives what a restart would cost. All of them
// are hints or caches: a restart, which forgets them, only makes the next runs read more.
type caches struct {
	// active knows the issues with an ask in flight or an open clarification, for the
	// cheap filters.
	active activeIssues
	// lastRuns lets a run read only what is new in an issue this process ran before.
	lastRuns issueCache
	// revs remembers the newest ledger revision of each issue, so an older one put back
	// into the status comment is not trusted.
	revs revCache
	// labelsSet remembers the app's own labels this process last set on each issue.
	labelsSet labelCache
	// labelsColoured remembers the labels GitHub made on first use that this process's
	// sweeps gave our colour, so that a listing that lags behind the edit costs no second.
	labelsColoured cache[bool]
	// runFailures counts each issue's failed runs in a row, to space their retries.
	runFailures failureCounts
	// members remembers team memberships across runs, for membershipTTL.
	members membershipCache
	// permissions remembers nothing: it only lets runs that look up one login's permission
	// at the same moment share the request (a burst's runs would each miss the ETag the
	// first one is about to bring), so an answer is never older than its request.
	permissions cache[permission]
	// waitsChanged is the repositories where a run saved wait-for edges since the sweep
	// last looked for deadlocks.
	waitsChanged repoSet
	// savedAt remembers this process's last save of each issue, for the sweep's walk.
	savedAt savedCache
	// blocked remembers each issue's open blocking clarifications, for outsiders' checks.
	blocked cache[[]clarify.Clarification]
	// checksOwed holds the issues whose pull requests' checks a run could not update.
	checksOwed cache[bool]
	// decisionIssues remembers the issue that holds each repository's decisions, so that
	// reading them costs one read of its comments rather than the label's too.
	decisionIssues cache[int]
	// decisionBooks keeps each repository's decisions as last read or written, for
	// offers, for decisionsTTL.
	decisionBooks cache[ledger.MemoryBook]
	// pendingMemory holds the decisions waiting for the memory's next write.
	pendingMemory decisions.Pending
}

// newCaches returns the caches of a process whose clock is now.
func newCaches(now func() time.Time) caches {
	return caches{members: membershipCache{ttl: membershipTTL, now: now},
		blocked:       cache[[]clarify.Clarification]{ttl: checks.OutsiderTrust, now: now},
		decisionBooks: cache[ledger.MemoryBook]{ttl: decisions.TTL, now: now}}
}

// cache is a map a process keeps between runs, safe for concurrent use. It is bounded:
// past maxRemembered keys it starts afresh, which costs what a restart costs, no more.
// With a ttl, an entry is fresh for that long after it was put; a stale one is still
// there for a caller that would rather have it than nothing (lookup).
type cache[V any] struct {
	// ttl, when positive, is how long an entry stays fresh.
	ttl time.Duration
	// now is the clock the ttl is measured by; nil is the wall clock.
	now func() time.Time

	mu sync.Mutex
	m  map[string]remembered[V]
	// flight makes the callers that miss one key at the same moment (the runs of a burst
	// in one repository) share one load of it (load).
	flight singleflight.Group
}

// load returns the key's fresh value, or has fetch find it: once for every caller that
// asks at the same moment, so that a burst of runs costs one request. What fetch returns
// is remembered when it says to keep it. fetched reports whether this caller's own fetch
// found the value (the one run that should act on news in it, such as a broken file).
func (m *cache[V]) load(key string, fetch func() (v V, keep bool, err error)) (v V, fetched bool, err error) {
	if v, ok := m.get(key); ok {
		return v, false, nil
	}
	r, err, _ := m.flight.Do(key, func() (any, error) {
		// A caller that lost the race to start the flight may find the load already done.
		if v, ok := m.get(key); ok {
			return v, nil
		}
		fetched = true
		v, keep, err := fetch()
		if err == nil && keep {
			m.put(key, v)
		}
		return v, err
	})
	v, _ = r.(V)
	return v, fetched, err
}

// remembered is one entry and when it goes stale (zero: never).
type remembered[V any] struct {
	v       V
	expires time.Time
}

// get returns the key's value while it is fresh.
func (m *cache[V]) get(key string) (V, bool) {
	v, fresh, _ := m.lookup(key)
	return v, fresh
}

// lookup returns the key's value, whether it is still fresh, and whether there is one.
func (m *cache[V]) lookup(key string) (v V, fresh, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok {
		return v, false, false
	}
	return e.v, m.fresh(e), true
}

func (m *cache[V]) put(key string, v V) {
	m.update(key, func(V) V { return v })
}

// update replaces the key's value with f of the old one (the zero value when there is
// none, or it is stale) and returns what it was.
func (m *cache[V]) update(key string, f func(old V) V) V {
	return m.change(key, func(old V) (V, bool) { return f(old), true })
}

// change is update in which f may also say to forget the key, in the same step, so that
// no other change comes between.
func (m *cache[V]) change(key string, f func(old V) (v V, keep bool)) V {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= maxRemembered {
		m.m = map[string]remembered[V]{}
	}
	var old V
	if e, ok := m.m[key]; ok && m.fresh(e) {
		old = e.v
	}
	v, keep := f(old)
	if !keep {
		delete(m.m, key)
		return old
	}
	e := remembered[V]{v: v}
	if m.ttl > 0 {
		e.expires = m.clock().Add(m.ttl)
	}
	m.m[key] = e
	return old
}

func (m *cache[V]) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
}

func (m *cache[V]) fresh(e remembered[V]) bool {
	return e.expires.IsZero() || m.clock().Before(e.expires)
}

func (m *cache[V]) clock() time.Time {
	if m.now == nil {
		return time.Now()
	}
	return m.now()
}
