package delivery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/internal/ghtransport"
)

// Defaults of Redeliver.
const (
	// DefaultRedeliverLookback is how far back the first run after a start looks: long
	// enough to cover a night's outage, well inside the 3 days GitHub keeps the log.
	DefaultRedeliverLookback = 24 * time.Hour
	// DefaultRedeliverMax bounds the redeliveries asked for in one run, so a long outage
	// is caught up over several sweeps rather than in one burst.
	DefaultRedeliverMax = 50
	// redeliverWindow is how long GitHub keeps a delivery in its log, and so how long a
	// failed one can still be asked for: an attack or an outage of a day must not lose it.
	redeliverWindow = 72 * time.Hour
	// redeliverFirstWait and redeliverMaxWait space the asks for one delivery that keeps
	// failing: each wait twice the last, from minutes to hours, so that about fifteen asks
	// cover GitHub's three days.
	redeliverFirstWait = 5 * time.Minute
	redeliverMaxWait   = 6 * time.Hour
	// maxPendingRedeliveries bounds the deliveries remembered as undelivered.
	maxPendingRedeliveries = 10_000
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

	mu      sync.Mutex
	since   time.Time
	pending map[string]*undeliveredGUID
}

// undeliveredGUID is a delivery no attempt of which got through yet.
type undeliveredGUID struct {
	guid, event, status string
	latest              int64     // the newest attempt's id: the one to redeliver
	first               time.Time // its first attempt: GitHub forgets it redeliverWindow later
	asks                int
	next                time.Time // when to ask again
}

// RedeliverStats says what one run did.
type RedeliverStats struct {
	// Read counts the log entries read; Failed the GUIDs found undelivered; Asked the
	// redeliveries asked for and taken; Refused the asks GitHub answered with an error.
	Read, Failed, Asked, Refused int
}

// Run reads the delivery log since the last run, remembers each delivery none of whose
// attempts got through, and asks again for those whose wait is over: first at once, then
// with growing waits, for as long as GitHub keeps them. Runs are serialised; a run that
// fails leaves the next to read from the same point.
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
	r.note(attempts)
	for _, d := range r.due(start) {
		stats.Failed++
		if start.Before(d.next) || stats.Asked+stats.Refused >= r.max() {
			continue
		}
		if r.ask(ctx, app, d, start) {
			stats.Asked++
		} else {
			stats.Refused++
		}
	}
	// The log is read again from a little before this run, whatever the asks came to: an
	// attempt still in flight when it read the log is recorded with the time it began.
	r.since = start.Add(-time.Minute)
	return stats, nil
}

// ask asks GitHub to redeliver d and reports whether it took the ask. A refused ask is
// logged and waited out like a failed redelivery, so that one delivery GitHub keeps
// refusing cannot stand first in every run ahead of the others; a delivery GitHub does
// not know (404) or will not redeliver (422) is forgotten, as asking again cannot help.
func (r *Redeliver) ask(ctx context.Context, app *github.Client, d *undeliveredGUID, now time.Time) bool {
	_, _, err := app.Apps.RedeliverHookDelivery(ctx, d.latest)
	var accepted *github.AcceptedError
	refused := err != nil && !errors.As(err, &accepted)
	ev := func(e *zerolog.Event) *zerolog.Event {
		return e.Str(githubapp.LogKeyDeliveryID, d.guid).Str(githubapp.LogKeyEventType, d.event).Str("first_failure", d.status)
	}
	log := zerolog.Ctx(ctx)
	if refused && (ghtransport.IsStatus(err, http.StatusNotFound) || ghtransport.IsStatus(err, http.StatusUnprocessableEntity)) {
		delete(r.pending, d.guid)
		ev(log.Warn().Err(err)).Msg("GitHub will not redeliver a failed delivery; no longer asking for it")
		return false
	}
	d.asks++
	d.next = now.Add(redeliverWait(d.asks))
	if refused {
		ev(log.Warn().Err(err)).Int("asks", d.asks).Time("next_ask", d.next).Msg("GitHub refused to redeliver a failed delivery; asking again later")
		return false
	}
	ev(log.Info()).Int("asks", d.asks).Time("next_ask", d.next).Msg("Asked GitHub to redeliver a failed delivery")
	return true
}

// note folds newly read attempts into what is remembered: a delivery one of whose
// attempts got through is forgotten, one that failed again is redelivered from its
// newest attempt.
func (r *Redeliver) note(attempts []*github.HookDelivery) {
	if r.pending == nil {
		r.pending = map[string]*undeliveredGUID{}
	}
	for guid, g := range byGUID(attempts) {
		p := r.pending[guid]
		switch {
		case g.delivered, refusedForGood(g.newest.GetStatusCode()):
			delete(r.pending, guid)
			continue
		case p == nil && len(r.pending) >= maxPendingRedeliveries:
			continue
		case p == nil:
			d := g.newest
			p = &undeliveredGUID{guid: guid, event: d.GetEvent(), status: d.GetStatus(), first: g.oldest}
			r.pending[guid] = p
		}
		p.latest = max(p.latest, g.newest.GetID())
	}
}

// due lists the remembered deliveries GitHub still keeps, oldest first so that an issue's
// events go in order, and forgets the others.
func (r *Redeliver) due(now time.Time) []*undeliveredGUID {
	var out []*undeliveredGUID
	for guid, p := range r.pending {
		if now.Sub(p.first) > redeliverWindow {
			delete(r.pending, guid)
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *undeliveredGUID) int {
		if c := a.first.Compare(b.first); c != 0 {
			return c
		}
		return cmp.Compare(a.latest, b.latest)
	})
	return out
}

// refusedForGood reports whether the app refused a delivery for what it is (malformed, no
// length, too large, not decodable): sent again with the same body, it would be refused
// again, so it is not asked for. A 401 is asked for: a webhook secret set right since
// lets it through.
func refusedForGood(code int) bool {
	switch code {
	case http.StatusBadRequest, http.StatusLengthRequired, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

// redeliverWait is the wait after the asks-th ask for one delivery.
func redeliverWait(asks int) time.Duration {
	wait := redeliverFirstWait
	for i := 1; i < asks && wait < redeliverMaxWait; i++ {
		wait *= 2
	}
	return min(wait, redeliverMaxWait)
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

// attemptsOf is what a read of the log says of one GUID.
type attemptsOf struct {
	newest    *github.HookDelivery
	oldest    time.Time
	delivered bool
}

// byGUID groups attempts (newest first) by GUID: one of them answered 2xx or not, the
// newest (the one to redeliver) and when the oldest began.
func byGUID(attempts []*github.HookDelivery) map[string]*attemptsOf {
	out := map[string]*attemptsOf{}
	for _, d := range attempts {
		g := out[d.GetGUID()]
		if g == nil {
			g = &attemptsOf{newest: d}
			out[d.GetGUID()] = g
		}
		g.oldest = d.GetDeliveredAt().Time
		if code := d.GetStatusCode(); code >= 200 && code < 300 {
			g.delivered = true
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
