package redisstate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
	"github.com/rs/zerolog"
)

// Defaults of Options.
const (
	// DefaultLeaseTTL is how long a lease outlives a holder that stopped renewing it (a
	// replica killed mid-run): short, since everything waiting on it waits that long, and
	// renewed every third of it while the holder lives, so it never limits a long run.
	DefaultLeaseTTL = 15 * time.Second
	// DefaultSeenTTL is how long a delivery that ran is remembered: GitHub keeps its
	// delivery log, and so can redeliver, for 3 days.
	// https://docs.github.com/en/webhooks/testing-and-troubleshooting-webhooks/redelivering-webhooks
	DefaultSeenTTL = 4 * 24 * time.Hour
)

// Timeouts of the connection to Redis: short, because a Redis that does not answer is
// worked around (in memory), and a webhook's run should not wait long to learn it.
const (
	dialTimeout = 2 * time.Second
	ioTimeout   = time.Second
	// retryDown is how long calls go straight to memory after Redis failed, so that an
	// unreachable Redis (a dropped packet, not a refused connection) costs one timeout a
	// while rather than one per call.
	retryDown = 2 * time.Second
	// logDownEvery rate-limits the outage's log line, which would otherwise come with
	// every request to GitHub.
	logDownEvery = 30 * time.Second
)

// Options configures a Store.
type Options struct {
	// URL is the Redis URL: redis://[[user]:password@]host[:port][/db], rediss:// for
	// TLS, or unix:///path/to.sock.
	URL string
	// Prefix starts every key, so that two apps (production and staging) can share one
	// Redis without sharing leases or delivery ids.
	Prefix string
	// Logger receives the outage and recovery lines.
	Logger zerolog.Logger
	// LeaseTTL is DefaultLeaseTTL when 0; SeenTTL is DefaultSeenTTL when 0.
	LeaseTTL, SeenTTL time.Duration
	// Now is the clock; nil means the real one.
	Now func() time.Time
	// PaceClock is the one clock the pacer's shared windows are kept on, whatever each
	// replica's says; nil means the Redis server's own. Tests give it, as the clock of a
	// Redis that is not theirs.
	PaceClock func() time.Time
}

// Store is the connection to Redis that the replicas share, and the fallback of each of
// its parts.
type Store struct {
	rdb      *redis.Client
	prefix   string
	leaseTTL time.Duration
	seenTTL  time.Duration
	now      func() time.Time
	// paceClock is Options.PaceClock.
	paceClock func() time.Time
	log       zerolog.Logger
	where     string // the URL without its password, for the log

	mu       sync.Mutex
	down     bool
	retryAt  time.Time
	loggedAt time.Time
	failures int // failed calls since the last outage line
}

var setLogger sync.Once

// CheckURL says what is wrong with a Redis URL, without quoting its password.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("it does not parse as a URL")
	}
	switch u.Scheme {
	case "redis", "rediss", "unix":
	default:
		return fmt.Errorf("its scheme is %q, not redis, rediss (TLS) or unix", u.Scheme)
	}
	if _, err := redis.ParseURL(raw); err != nil {
		// go-redis names the part at fault (the database, an option), never the password.
		return errors.New(strings.TrimPrefix(err.Error(), "redis: "))
	}
	return nil
}

// New returns a Store for opts.URL. It does not connect: a Redis that is down at start is
// one more outage to work around, not a reason to stop serving.
func New(opts Options) (*Store, error) {
	if err := CheckURL(opts.URL); err != nil {
		return nil, fmt.Errorf("not a Redis URL: %w", err)
	}
	ro, _ := redis.ParseURL(opts.URL) // checked just above
	if ro.DialTimeout == 0 {
		ro.DialTimeout = dialTimeout
	}
	if ro.ReadTimeout == 0 {
		ro.ReadTimeout = ioTimeout
	}
	if ro.WriteTimeout == 0 {
		ro.WriteTimeout = ioTimeout
	}
	ro.ContextTimeoutEnabled = true
	// One retry: a call that fails is worked around in memory, so retrying it longer
	// only delays the delivery.
	ro.MaxRetries = 1
	// Nothing here needs the server to know the client's name or to push maintenance
	// notices; asking for them only adds round trips and log lines on older servers.
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	u, _ := url.Parse(opts.URL)
	s := &Store{
		rdb:       redis.NewClient(ro),
		prefix:    opts.Prefix,
		leaseTTL:  opts.LeaseTTL,
		seenTTL:   opts.SeenTTL,
		now:       opts.Now,
		paceClock: opts.PaceClock,
		log:       opts.Logger,
		where:     u.Redacted(),
	}
	if s.leaseTTL <= 0 {
		s.leaseTTL = DefaultLeaseTTL
	}
	if s.seenTTL <= 0 {
		s.seenTTL = DefaultSeenTTL
	}
	if s.now == nil {
		s.now = time.Now
	}
	// go-redis logs to stderr in its own format; its lines are about what the outage line
	// already says, so they go to the app's JSON log at debug level.
	logger := opts.Logger
	setLogger.Do(func() { redis.SetLogger(clientLog{logger}) })
	return s, nil
}

// clientLog passes go-redis's own log lines to the app's logger.
type clientLog struct{ log zerolog.Logger }

// Printf logs one of go-redis's lines at debug level.
func (c clientLog) Printf(_ context.Context, format string, v ...any) {
	c.log.Debug().Str("from", "go-redis").Msgf(format, v...)
}

// Where is the Redis URL without its password.
func (s *Store) Where() string { return s.where }

// Ping says whether Redis answers now.
func (s *Store) Ping(ctx context.Context) error {
	return s.rdb.Ping(ctx).Err()
}

// Close closes the connections to Redis.
func (s *Store) Close() error { return s.rdb.Close() }

// key builds a key under the store's prefix.
func (s *Store) key(parts ...string) string {
	k := s.prefix
	for i, p := range parts {
		if i > 0 {
			k += ":"
		}
		k += p
	}
	return k
}

// try runs f against Redis unless Redis failed a moment ago, and reports whether Redis
// answered; when it did not, the caller falls back to memory. A context that ended is
// returned as an error: that is the caller's deadline, not an outage.
func (s *Store) try(ctx context.Context, op string, f func(ctx context.Context) error) (answered bool, err error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if !s.usable() {
		s.failed(op, nil)
		return false, nil
	}
	err = f(ctx)
	if err == nil || errors.Is(err, redis.Nil) {
		s.succeeded()
		return true, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	s.failed(op, err)
	return false, nil
}

func (s *Store) usable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.down || !s.now().Before(s.retryAt)
}

// failed records a call that Redis did not answer (err nil: one not tried, Redis being
// down), and logs the outage loudly, at most once every logDownEvery.
func (s *Store) failed(op string, err error) {
	s.mu.Lock()
	now := s.now()
	s.failures++
	if err != nil {
		s.retryAt = now.Add(retryDown)
	}
	first := !s.down
	s.down = true
	if !first && now.Sub(s.loggedAt) < logDownEvery {
		s.mu.Unlock()
		return
	}
	n := s.failures
	s.failures, s.loggedAt = 0, now
	s.mu.Unlock()
	ev := s.log.Error().Str("redis", s.where).Str("op", op).Int("calls_in_memory", n)
	if err != nil {
		ev = ev.Err(err)
	}
	ev.Msg("REDIS UNREACHABLE: this replica goes on alone, in memory (issue leases, write pacing, sweep lease, " +
		"deadline index, deliveries seen); replicas may now repeat each other's work, and the fold heals it when Redis is back")
}

func (s *Store) succeeded() {
	s.mu.Lock()
	if !s.down {
		s.mu.Unlock()
		return
	}
	n := s.failures
	s.down, s.failures = false, 0
	s.mu.Unlock()
	s.log.Warn().Str("redis", s.where).Int("calls_in_memory", n).Msg("Redis is reachable again: replicas share state again")
}

// token returns a random value that names one holder of a lease or a claim.
func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on the platforms Go supports
	return hex.EncodeToString(b[:])
}
