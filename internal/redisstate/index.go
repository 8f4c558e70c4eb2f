package redisstate

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/handlers"
)

// Index is the sweep's deadline index shared by replicas: a sorted set of issue keys by
// due time (ms since the epoch), a hash of the entries (JSON) by issue key, and a set of
// issue keys per repository of an installation, so that a repository's entries are read
// without scanning them all.
type Index struct {
	s *Store
	// fallback keeps every entry this process wrote, so that while Redis is unreachable
	// the sweep still finds the deadlines this replica knows of.
	fallback handlers.LocalIndex
}

var _ handlers.DeadlineIndex = (*Index)(nil)

// Index returns the store's deadline index.
func (s *Store) Index() *Index { return &Index{s: s} }

func (x *Index) dueKey() string     { return x.s.key("index", "due") }
func (x *Index) entriesKey() string { return x.s.key("index", "entries") }
func (x *Index) repoKey(installation int64, owner, repo string) string {
	return x.s.key("index", "repo", strconv.FormatInt(installation, 10), owner+"/"+repo)
}

// Put records or replaces the entry; one without a deadline is kept out of the
// sorted set, so that Due never returns it.
func (x *Index) Put(ctx context.Context, e handlers.IndexEntry) error {
	_ = x.fallback.Put(ctx, e)
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("index entry of %s: %w", e.Key(), err)
	}
	key := e.Key()
	_, err = x.s.try(ctx, "index put", func(ctx context.Context) error {
		_, err := x.s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, x.entriesKey(), key, b)
			if e.Due.IsZero() {
				p.ZRem(ctx, x.dueKey(), key)
			} else {
				p.ZAdd(ctx, x.dueKey(), redis.Z{Score: float64(e.Due.UnixMilli()), Member: key})
			}
			p.SAdd(ctx, x.repoKey(e.Installation, e.Owner, e.Repo), key)
			return nil
		})
		return err
	})
	return err
}

// Remove forgets the issue.
func (x *Index) Remove(ctx context.Context, e handlers.IndexEntry) error {
	_ = x.fallback.Remove(ctx, e)
	key := e.Key()
	_, err := x.s.try(ctx, "index remove", func(ctx context.Context) error {
		_, err := x.s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HDel(ctx, x.entriesKey(), key)
			p.ZRem(ctx, x.dueKey(), key)
			p.SRem(ctx, x.repoKey(e.Installation, e.Owner, e.Repo), key)
			return nil
		})
		return err
	})
	return err
}

// Due returns the entries whose deadline is at or before now, earliest first.
func (x *Index) Due(ctx context.Context, now time.Time) ([]handlers.IndexEntry, error) {
	var out []handlers.IndexEntry
	answered, err := x.s.try(ctx, "index due", func(ctx context.Context) error {
		keys, err := x.s.rdb.ZRangeArgs(ctx, redis.ZRangeArgs{Key: x.dueKey(), ByScore: true,
			Start: "-inf", Stop: strconv.FormatInt(now.UnixMilli(), 10)}).Result()
		if err != nil {
			return err
		}
		out, err = x.entries(ctx, keys)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !answered {
		return x.fallback.Due(ctx, now)
	}
	// The set's milliseconds may round a deadline a little after now; the entry's own
	// time decides.
	out = slices.DeleteFunc(out, func(e handlers.IndexEntry) bool { return e.Due.After(now) })
	return out, nil
}

// Repo returns every entry of one repository of an installation.
func (x *Index) Repo(ctx context.Context, installation int64, owner, repo string) ([]handlers.IndexEntry, error) {
	var out []handlers.IndexEntry
	answered, err := x.s.try(ctx, "index repo", func(ctx context.Context) error {
		keys, err := x.s.rdb.SMembers(ctx, x.repoKey(installation, owner, repo)).Result()
		if err != nil {
			return err
		}
		out, err = x.entries(ctx, keys)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !answered {
		return x.fallback.Repo(ctx, installation, owner, repo)
	}
	return out, nil
}

// entries reads the entries of keys, in the order handlers.LocalIndex gives them (due
// time, then key). A key whose entry is gone (removed between the two reads) is skipped.
func (x *Index) entries(ctx context.Context, keys []string) ([]handlers.IndexEntry, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	vals, err := x.s.rdb.HMGet(ctx, x.entriesKey(), keys...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]handlers.IndexEntry, 0, len(vals))
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		var e handlers.IndexEntry
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			// One entry this version cannot read is a cache miss, not a failed sweep: the
			// sweep's reconciliation pass writes it again.
			x.s.log.Warn().Err(err).Str("issue", keys[i]).Msg("Skipped an unreadable deadline index entry")
			continue
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b handlers.IndexEntry) int {
		return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.Key(), b.Key()))
	})
	return out, nil
}
