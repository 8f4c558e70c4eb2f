package handlers

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// IndexEntry is what the sweep needs to know of one issue with open clarifications without
// reading it: when its next deadline falls, and whom its clarifications wait on.
type IndexEntry struct {
	Installation int64
	Owner, Repo  string
	Number       int
	// Due is the issue's next deadline (a stale or time-out time); zero when what is open
	// has none (escalated: it waits on people), so that the sweep's due pass never visits
	// it and its walk still knows the issue unchanged.
	Due time.Time
	// Waits are the issue's wait-for edges, so a repository's deadlocks can be looked for
	// without reading its ledgers.
	Waits []clarify.WaitFor
	// Seen is the issue's updated_at as GitHub listed it (or answered it) just before a run
	// read the issue and saved: a walk that lists the same updated_at again knows nothing
	// happened since, whatever GitHub's clock says and whichever replica saved. Zero when
	// the run had only a webhook's payload, whose issue may be older than the comments read.
	Seen time.Time `json:",omitempty"`
	// Written is GitHub's time of the last write of the run that saved the entry (the Date
	// of GitHub's answers, ghtransport.WriteClock): an issue listed with an updated_at no
	// later than that has been touched since by nothing but that run's own writes (labels,
	// comments), or within their second. Zero when the run wrote nothing, or not through
	// the App's clients.
	Written time.Time `json:",omitempty"`
}

// UnchangedSince reports whether the issue, as a walk lists it, is as it was when a run
// last read it: its updated_at is the one the entry saw, or no later than the last write
// of the run that saved it (Written), so that the run's own labels and comments do not
// read as a change. GitHub moves updated_at on a new comment, an edit of the issue, a label
// or a close, so such an updated_at means nothing a run would apply has come since, but
// what came while the run was writing, or in the very second of the listing (whole
// seconds): that waits for its own delivery, which the App fetches again from the delivery
// log when it was lost, or for the next change.
func (e IndexEntry) UnchangedSince(is *github.Issue) bool {
	if is.UpdatedAt == nil {
		return false
	}
	at := is.GetUpdatedAt().Time
	return !e.Seen.IsZero() && e.Seen.Equal(at) || !e.Written.IsZero() && !at.After(e.Written)
}

// seenOf is what a run's trigger vouches for of the issue's updated_at: the issue a sweep
// listed or read before the run read its comments; nothing for a webhook's payload.
func seenOf(trig trigger) time.Time {
	if trig.Kind != triggerTick || !trig.Listed || trig.Issue == nil {
		return time.Time{}
	}
	return trig.Issue.GetUpdatedAt().Time
}

// Key names the issue as every part of the app does: owner/repo#number.
func (e IndexEntry) Key() string {
	return clarify.IssueRef{Owner: e.Owner, Repo: e.Repo, Number: e.Number}.String()
}

// LocalIndex is the DeadlineIndex of a single process.
type LocalIndex struct {
	mu      sync.Mutex
	entries map[string]IndexEntry
}

// Put records or replaces the issue's entry.
func (m *LocalIndex) Put(_ context.Context, e IndexEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[string]IndexEntry{}
	}
	m.entries[e.Key()] = e
	return nil
}

// Remove forgets the issue.
func (m *LocalIndex) Remove(_ context.Context, e IndexEntry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, e.Key())
	return nil
}

// Due returns the entries due at now, earliest first.
func (m *LocalIndex) Due(_ context.Context, now time.Time) ([]IndexEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []IndexEntry
	for _, e := range m.entries {
		if !e.Due.IsZero() && !e.Due.After(now) {
			out = append(out, e)
		}
	}
	SortEntries(out)
	return out, nil
}

// Repo returns the entries of one repository.
func (m *LocalIndex) Repo(_ context.Context, installation int64, owner, repo string) ([]IndexEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []IndexEntry
	for _, e := range m.entries {
		if e.Installation == installation && e.Owner == owner && e.Repo == repo {
			out = append(out, e)
		}
	}
	SortEntries(out)
	return out, nil
}

// SortEntries orders entries by deadline, then issue, so a sweep's order is stable.
func SortEntries(es []IndexEntry) {
	slices.SortFunc(es, func(a, b IndexEntry) int {
		return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.Key(), b.Key()))
	})
}

// indexSaved records in the deadline index what the sweep needs of an issue whose ledger was
// just saved under policy p: its next deadline and its wait-for edges, an entry without a
// deadline while what is open has none (escalated, with a human: time does nothing to it,
// and the entry lets a restarted process's walk leave the issue unread), and nothing once
// nothing is open. The index is a cache of the ledgers, so a failure to write it is logged
// and the run goes on: the sweep's reconciliation finds the issue again.
func (run *issueRun) indexSaved(ctx context.Context, saved clarify.Ledger, p clarify.Policy, seen time.Time) {
	if run.index == nil {
		return
	}
	inst, ok := ghtransport.InstallationOf(ctx)
	if !ok {
		// Every handler and the sweep get their client through InstallationClient; a run
		// without it is a test's, and an entry without its installation could never be run.
		return
	}
	e := IndexEntry{Installation: inst, Owner: run.ref.Owner, Repo: run.ref.Repo, Number: run.ref.Number,
		Due: run.nextDue(run.ref, saved), Waits: clarify.WaitFors([]clarify.Ledger{saved}, p), Seen: seen,
		Written: ghtransport.LastWrite(ctx)}
	keep := !e.Due.IsZero() || len(saved.Open()) > 0
	run.savedAt.put(run.ref.String(), savedMark{At: run.Now(), Put: keep, Entry: e})
	run.runFailures.clear(run.ref.String())
	var err error
	if !keep {
		err = run.index.Remove(ctx, e)
	} else {
		err = run.index.Put(ctx, e)
	}
	if err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Deadline index not updated; the sweep's reconciliation will find the issue")
	}
	if len(e.Waits) > 0 {
		run.waitsChanged.add(RepoRef{Installation: inst, Owner: run.ref.Owner, Repo: run.ref.Repo})
	}
}

// nextDue is when the sweep must run the issue next, saved as it is: its next deadline, or
// now when the pull requests' checks could not be updated (checkPullRequests), whatever
// its deadline. Zero: never, until something happens in it.
func (b *Base) nextDue(ref clarify.IssueRef, saved clarify.Ledger) time.Time {
	if _, owed := b.checksOwed.get(ref.String()); owed {
		return b.Now()
	}
	return clarify.NextDeadline(saved)
}

// indexFailed makes an issue whose run failed due soon, so that a sweep runs it again
// before the next walk: what the failed run was to apply is in the issue's comments, and
// the fold takes it in. A run that then succeeds records the real deadline. Past a few
// failures in a row (a delivery's own tries count), each doubles the wait, up to an hour,
// so that an issue that cannot succeed (its installation gone, a ledger of a newer
// version) costs little.
func (run *issueRun) indexFailed(ctx context.Context) {
	inst, ok := ghtransport.InstallationOf(ctx)
	if run.index == nil || !ok {
		return
	}
	var wait time.Duration
	if n := run.runFailures.add(run.ref.String()) - failuresBeforeBackoff; n >= 0 {
		wait = min(time.Minute<<min(n, 6), time.Hour)
	}
	e := IndexEntry{Installation: inst, Owner: run.ref.Owner, Repo: run.ref.Repo, Number: run.ref.Number, Due: run.Now().Add(wait)}
	if err := run.index.Put(context.WithoutCancel(ctx), e); err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Deadline index not updated after a failed run; the sweep's walk will find the issue")
	}
}

// RepoRef names one repository of one installation.
type RepoRef struct {
	Installation int64
	Owner, Repo  string
}

// Key names the repository as OWNER/REPO.
func (r RepoRef) Key() string { return r.Owner + "/" + r.Repo }

// WaitsChanged returns the repositories where a run saved wait-for edges since the last
// call, for the sweep's deadlock look, and forgets them.
func (b *Base) WaitsChanged() map[RepoRef]bool { return b.waitsChanged.take() }

// SavedSince reports whether this process saved an issue since it was last updated, as a
// walk lists it (and indexed it, if that save put it in the index at all).
func (b *Base) SavedSince(ref clarify.IssueRef, is *github.Issue, indexed bool) bool {
	saved, ok := b.savedAt.get(ref.String())
	return ok && !is.GetUpdatedAt().After(saved.At.Add(-ghtransport.ClockSlack)) && (indexed || !saved.Put)
}

// repoSet is the repositories whose wait-for edges changed since the sweep last looked, so
// that a deadlock is looked for in a repository only when one may have formed.
type repoSet struct {
	mu    sync.Mutex
	repos map[RepoRef]bool
}

func (s *repoSet) add(r RepoRef) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repos == nil {
		s.repos = map[RepoRef]bool{}
	}
	s.repos[r] = true
}

// take returns the repositories added since the last take, and forgets them.
func (s *repoSet) take() map[RepoRef]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.repos
	s.repos = nil
	return out
}

// savedCache remembers when this process last saved each issue's ledger and whether that
// left an entry in the index, so that the sweep's walk can tell the issues it may leave to
// the index (nothing happened in them since) from those it must read.
type savedCache = cache[savedMark]

// savedMark is one issue's last save by this process.
type savedMark struct {
	At time.Time
	// Put says the save left an entry in the index (a deadline was open): Entry.
	Put   bool
	Entry IndexEntry
}

// indexWrites brings the index entry of the issue's save up to the run's last write,
// when the run wrote after the save (the labels that come off after it): so the run's own
// writes never read as a change to the walk (IndexEntry.Written).
func (run *issueRun) indexWrites(ctx context.Context) {
	mark, ok := run.savedAt.get(run.ref.String())
	last := ghtransport.LastWrite(ctx)
	if run.index == nil || !ok || !mark.Put || !last.After(mark.Entry.Written) {
		return
	}
	mark.Entry.Written = last
	run.savedAt.put(run.ref.String(), mark)
	if err := run.index.Put(ctx, mark.Entry); err != nil {
		zerolog.Ctx(ctx).Warn().Err(err).Msg("Deadline index not brought up to the run's last write; the walk reads the issue again")
	}
}

// DefaultRunRetries is how many times a delivery whose run failed is run again. A run is
// idempotent (every post carries its marker, labels and the status comment are set to
// the ledger), and GitHub never redelivers a delivery the app already answered with 202,
// so a run that fails on a passing fault (a 502, a timeout) must be tried again here or
// it is lost until the next event in the issue.
const DefaultRunRetries = 3

// failuresBeforeBackoff is how many failed runs in a row an issue gets retried at every
// sweep: two deliveries' worth of tries.
const failuresBeforeBackoff = 2 * (1 + DefaultRunRetries)

// failureCounts counts each issue's runs that failed in a row, for indexFailed's back-off.
type failureCounts struct{ m cache[int] }

// add counts one more failure and returns how many came before it.
func (f *failureCounts) add(key string) int {
	return f.m.update(key, func(n int) int { return n + 1 })
}

func (f *failureCounts) clear(key string) { f.m.forget(key) }
