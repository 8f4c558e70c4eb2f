package handlers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"
)

// Defaults of Redeliver.
const (
	// DefaultRedeliverLookback is how far back the first run after a start looks: long
	// enough to cover a night's outage, well inside the 3 days GitHub keeps the log.
	DefaultRedeliverLookback = 24 * time.Hour
	// DefaultRedeliverMax bounds the redeliveries asked for in one run, so a long outage
	// is caught up over several sweeps rather than in one burst.
	DefaultRedeliverMax = 50
	// maxRedeliveries is how often one delivery is asked for again before it is left
	// alone: one that keeps failing is the app's problem, not the network's.
	maxRedeliveries = 3
)

// Redeliver asks GitHub again for the app's webhook deliveries that failed: GitHub never
// retries one itself, so an ask made while the app was down (or answered 5xx) would
// otherwise be lost. It follows GitHub's documented recipe: read the delivery log back to
// the last run, group the attempts by delivery GUID, and redeliver each GUID that no
// attempt delivered.
// https://docs.github.com/en/webhooks/using-webhooks/automatically-redelivering-failed-deliveries-for-a-github-app-webhook
type Redeliver struct {
	Clients githubapp.ClientCreator
	Now     func() time.Time
	// Lookback is how far back the first run looks; Max bounds one run's redeliveries.
	Lookback time.Duration
	Max      int

	mu    sync.Mutex
	since time.Time
	asked map[string]int // GUID → redeliveries this process asked for
}

// RedeliverStats says what one run did.
type RedeliverStats struct {
	// Read counts the log entries read; Failed the GUIDs found undelivered; Asked the
	// redeliveries asked for.
	Read, Failed, Asked int
}

// Run reads the delivery log since the last run and asks for each undelivered one again.
// Runs are serialised; a run that fails leaves the next to read from the same point.
func (r *Redeliver) Run(ctx context.Context) (RedeliverStats, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var stats RedeliverStats
	start := r.Now()
	since := r.since
	if since.IsZero() {
		since = start.Add(-r.lookback())
	}
	app, err := r.Clients.NewAppClient()
	if err != nil {
		return stats, err
	}
	attempts, err := r.log(ctx, app, since)
	stats.Read = len(attempts)
	if err != nil {
		return stats, err
	}
	for _, d := range undelivered(attempts) {
		stats.Failed++
		if r.asked[d.GetGUID()] >= maxRedeliveries || stats.Asked >= r.max() {
			continue
		}
		_, _, err := app.Apps.RedeliverHookDelivery(ctx, d.GetID())
		var accepted *github.AcceptedError
		if err != nil && !errors.As(err, &accepted) {
			return stats, fmt.Errorf("redeliver %s (%s): %w", d.GetGUID(), d.GetEvent(), err)
		}
		if r.asked == nil {
			r.asked = map[string]int{}
		}
		r.asked[d.GetGUID()]++
		stats.Asked++
		zerolog.Ctx(ctx).Info().Str(githubapp.LogKeyDeliveryID, d.GetGUID()).Str(githubapp.LogKeyEventType, d.GetEvent()).
			Str("first_failure", d.GetStatus()).Msg("Asked GitHub to redeliver a failed delivery")
	}
	// The log is read again from a little before this run: an attempt still in flight
	// when it read the log is recorded with the time it began.
	r.since = start.Add(-time.Minute)
	return stats, nil
}

// log reads the delivery attempts since the given time, newest first.
func (r *Redeliver) log(ctx context.Context, app *github.Client, since time.Time) ([]*github.HookDelivery, error) {
	var out []*github.HookDelivery
	opts := &github.ListCursorOptions{PerPage: 100}
	for {
		page, resp, err := app.Apps.ListHookDeliveries(ctx, opts)
		if err != nil {
			return out, fmt.Errorf("list webhook deliveries: %w", err)
		}
		for _, d := range page {
			if d.GetDeliveredAt().Before(since) {
				return out, nil
			}
			out = append(out, d)
		}
		if resp.Cursor == "" {
			return out, nil
		}
		opts.Cursor = resp.Cursor
	}
}

// undelivered returns, for each GUID none of whose attempts was answered 2xx, its newest
// attempt (the one to redeliver), oldest GUID first so that an issue's events go in order.
func undelivered(attempts []*github.HookDelivery) []*github.HookDelivery {
	delivered := map[string]bool{}
	newest := map[string]*github.HookDelivery{}
	var order []string
	for _, d := range attempts { // newest first
		guid := d.GetGUID()
		if code := d.GetStatusCode(); code >= 200 && code < 300 {
			delivered[guid] = true
		}
		if _, seen := newest[guid]; !seen {
			newest[guid] = d
			order = append(order, guid)
		}
	}
	var out []*github.HookDelivery
	for i := len(order) - 1; i >= 0; i-- {
		if !delivered[order[i]] {
			out = append(out, newest[order[i]])
		}
	}
	return out
}

func (r *Redeliver) lookback() time.Duration {
	if r.Lookback > 0 {
		return r.Lookback
	}
	return DefaultRedeliverLookback
}

func (r *Redeliver) max() int {
	if r.Max > 0 {
		return r.Max
	}
	return DefaultRedeliverMax
}
