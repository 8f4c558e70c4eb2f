// Package redisstate lets several replicas of the app behind one webhook URL share what a
// single process keeps in memory: the per-issue leases, the per-installation write pacer,
// the sweep's lease, the deadline index and the delivery ids already run. Each type
// implements an interface of package handlers, whose in-memory implementations stay the
// default for one process.
//
// Contract: Redis is an optimisation of the app's correctness, never a condition of it.
// The state that matters lives in GitHub (the ledger in the status comment, the markers in
// the app's comments), and every run re-reads the issue and folds. So when Redis cannot
// be reached, each call falls back to this process's memory, logs it loudly (at most once
// every few seconds, with a count), and the app goes on serving the deliveries it gets as
// a single process would; when Redis is back, the next run of each issue heals it.
package redisstate
