package redisstate

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers"
)

// Decisions keeps each repository's recent decisions for the replicas' offers: a sorted
// set per repository of the decisions (JSON) by when they were added (ms since the epoch),
// trimmed to handlers.RecentDecisionsFor on each write and expiring with it.
type Decisions struct{ s *Store }

var _ handlers.RecentDecisions = (*Decisions)(nil)

// Decisions returns the store's recent decisions.
func (s *Store) Decisions() *Decisions { return &Decisions{s: s} }

func (d *Decisions) key(repo string) string { return d.s.key("decisions", repo) }

// Add records ds as made now. With Redis unreachable they are not shared: the memory's
// write keeps them, and offers see them once it is read.
func (d *Decisions) Add(ctx context.Context, repo string, ds []clarify.Decision) error {
	if len(ds) == 0 {
		return nil // ZADD takes at least one member; a MULTI holding a bare one fails whole
	}
	now := d.s.now()
	members := make([]redis.Z, 0, len(ds))
	for _, x := range ds {
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Errorf("decision %s: %w", x.ID, err)
		}
		members = append(members, redis.Z{Score: float64(now.UnixMilli()), Member: b})
	}
	old := recentSince(now)
	_, err := d.s.try(ctx, "decisions add", func(ctx context.Context) error {
		_, err := d.s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.ZAdd(ctx, d.key(repo), members...)
			p.ZRemRangeByScore(ctx, d.key(repo), "-inf", "("+old)
			p.PExpire(ctx, d.key(repo), handlers.RecentDecisionsFor)
			return nil
		})
		return err
	})
	return err
}

// Recent returns the repository's decisions added less than handlers.RecentDecisionsFor
// ago, oldest first; none while Redis is unreachable.
func (d *Decisions) Recent(ctx context.Context, repo string) ([]clarify.Decision, error) {
	since := recentSince(d.s.now())
	var raw []string
	_, err := d.s.try(ctx, "decisions recent", func(ctx context.Context) error {
		var err error
		raw, err = d.s.rdb.ZRangeArgs(ctx, redis.ZRangeArgs{Key: d.key(repo), Start: since, Stop: "+inf", ByScore: true}).Result()
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]clarify.Decision, 0, len(raw))
	for _, r := range raw {
		var x clarify.Decision
		if err := json.Unmarshal([]byte(r), &x); err != nil {
			return nil, fmt.Errorf("recent decision of %s: %w", repo, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// recentSince is the score (ms since the epoch) from which a decision added before now is
// still recent: handlers.RecentDecisionsFor earlier.
func recentSince(now time.Time) string {
	return strconv.FormatInt(now.Add(-handlers.RecentDecisionsFor).UnixMilli(), 10)
}
