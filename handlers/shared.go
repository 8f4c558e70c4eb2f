package handlers

import (
	"context"
	"time"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
)

// What replicas behind one webhook URL share. Each interface below has an in-memory
// implementation for a single process beside its user, and one over Redis in
// internal/redisstate; they are listed together so that what Redis must keep, and how
// atomically, reads in one place.

// PaceStore keeps each installation's window of writes and its rate-limit hold; the
// transport's pacer (internal/ghtransport) defines and uses it, and it is named here so
// that the five stores read together.
type PaceStore = ghtransport.PaceStore

// DeadlineIndex keeps an IndexEntry for every issue with open clarifications, so that a
// sweep visits only the issues whose deadline is due. One process keeps its own
// (LocalIndex); replicas share one through Redis. It is a cache of what the ledgers say:
// the sweep's slow reconciliation pass refills it after a restart.
type DeadlineIndex interface {
	// Put records or replaces the issue's entry.
	Put(ctx context.Context, e IndexEntry) error
	// Remove forgets the issue (nothing is open in it any more).
	Remove(ctx context.Context, e IndexEntry) error
	// Due returns the entries whose deadline is at or before now, earliest first; never
	// one without a deadline.
	Due(ctx context.Context, now time.Time) ([]IndexEntry, error)
	// Repo returns every entry of one repository of an installation.
	Repo(ctx context.Context, installation int64, owner, repo string) ([]IndexEntry, error)
}

// IssueLocker serialises the runs of one issue key (owner/repo#number) beyond this process:
// replicas behind one webhook URL share one through Redis.
type IssueLocker interface {
	// Lock waits until the issue is free or ctx ends, and returns the function that frees it.
	Lock(ctx context.Context, key string) (unlock func(), err error)
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

// ClaimState says where a delivery stands when a process claims it.
type ClaimState int

const (
	// ClaimTaken: nobody has run the delivery to its end and nobody has it in hand (or
	// whoever had it failed, or vanished and let its claim run out): this process runs it.
	ClaimTaken ClaimState = iota
	// ClaimDone: a run of the delivery succeeded, here or on another replica.
	ClaimDone
	// ClaimHeld: another run, usually on another replica, has the delivery in hand now.
	ClaimHeld
)

// DeliveriesSeen remembers deliveries by GitHub's GUID (X-GitHub-Delivery), which a
// redelivery keeps: replicas behind one webhook URL share it, so that a delivery sent
// again, to whichever replica, runs once. Only a success is remembered: a delivery whose
// run failed, or whose replica died while running it, can still be run by a redelivery.
type DeliveriesSeen interface {
	// Claim takes the delivery when its state is ClaimTaken; then finish must be called
	// once with whether the run succeeded.
	Claim(ctx context.Context, id string) (state ClaimState, finish func(ok bool), err error)
}

// RecentDecisions keeps the decisions people made lately in each repository (owner/repo)
// for RecentDecisionsFor, so that an offer on any replica sees those its copy of the
// memory, read up to a minute ago, does not hold yet. Replicas share one through Redis; a
// lone process needs none (its own are in hand until written).
type RecentDecisions interface {
	// Add records ds as made now.
	Add(ctx context.Context, repo string, ds []clarify.Decision) error
	// Recent returns the repository's decisions added less than RecentDecisionsFor ago,
	// oldest first.
	Recent(ctx context.Context, repo string) ([]clarify.Decision, error)
}

// RecentDecisionsFor is how long RecentDecisions keeps a decision: past an offer's trust
// in its copy of the memory (decisionsTTL) and the memory's write (memoryWriteEvery), with
// room to spare.
const RecentDecisionsFor = 10 * time.Minute
