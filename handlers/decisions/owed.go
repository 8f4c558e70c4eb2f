package decisions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// A decision that waits for the memory's next write (decisions_pending.go) is safe in its
// issue's ledger, which the run saves whatever the memory does; only the memory can lack
// it, when the process stops hard or its writes fail before the next write lands. Rather
// than pay a request to note each waiting decision somewhere durable, which would undo
// what waiting saves, the next process repairs the memory from the ledgers: a decision
// waits only after a write of this process landed, so one the memory lacks was settled
// after the memory's last write, in an issue GitHub lists as updated since (settling takes
// a comment). The repair is one listing of those issues and a read of each, once per
// repository per process, before its first offer or write; a memory that holds every
// decision costs the listing alone, which is no request at all in a steady process.

// owedSlack is how long before the memory's last write a decision it lacks may have been
// settled: a run takes its trigger's comment a moment after it is typed, and notes its
// decision a moment before the write it misses starts (clocks differ by ghtransport.ClockSlack).
const owedSlack = memoryWriteEvery + ghtransport.ClockSlack

// repairOnce records in the repository's memory the decisions a process before this one
// left owed, the first time this process reads or writes that memory; a look that fails
// is tried again at the next. book is the memory as just read, nil to read it. It returns
// what it recorded. Only a process that lets
// decisions wait looks: the others write each at once, and bot action's runs are one
// process each.
func repairOnce(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book *ledger.MemoryBook) ([]clarify.Decision, error) {
	if !h.Batches() || !h.Caches().Pending().firstLook(ref.Owner, ref.Repo) {
		return nil, nil
	}
	if book == nil {
		read, err := Read(ctx, h, client, ref.Owner, ref.Repo)
		if err != nil {
			h.Caches().Pending().again(ref.Owner, ref.Repo)
			return nil, err
		}
		book = &read
	}
	owed, err := repairOwed(ctx, h, client, clarify.IssueRef{Owner: ref.Owner, Repo: ref.Repo}, *book)
	if err != nil {
		h.Caches().Pending().again(ref.Owner, ref.Repo)
	}
	return owed, err
}

// repairOwed finds the decisions settled since the memory's last write that it lacks, and
// records them, oldest first.
func repairOwed(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book ledger.MemoryBook) ([]clarify.Decision, error) {
	last := lastWritten(book)
	if book.Issue == 0 || last.IsZero() {
		// No memory: no decision ever waited for one.
		return nil, nil
	}
	since := last.Add(-owedSlack)
	issues, err := ledger.ListUpdated(ctx, client, ref.Owner, ref.Repo, since)
	if err != nil {
		return nil, err
	}
	owed, err := owedIn(ctx, h, client, ref, book, issues, since)
	if err != nil || len(owed) == 0 {
		return nil, err
	}
	slices.SortStableFunc(owed, func(a, c clarify.Decision) int { return a.At.Compare(c.At) })
	zerolog.Ctx(ctx).Info().Int("decisions", len(owed)).Msg("Decisions a process before this one left owed are written into the memory")
	return owed, recordDecisions(ctx, h, client, ref, nil, owed)
}

// owedIn is the decisions people settled since since in issues that the memory lacks.
func owedIn(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef, book ledger.MemoryBook, issues []*github.Issue, since time.Time) ([]clarify.Decision, error) {
	policy, err := h.Policy(ctx, client, ref.Owner, ref.Repo)
	if err != nil {
		return nil, err
	}
	// One look-up of each login for the repository, whichever issues they settled in.
	actor := h.Actors(client, ref)
	who := func(login string) (clarify.Actor, error) { return actor(ctx, login) }
	var owed []clarify.Decision
	for _, is := range issues {
		if is.GetNumber() == book.Issue {
			continue
		}
		got, err := h.Reader().Read(ctx, client, ref.Owner, ref.Repo, is.GetNumber())
		if errors.Is(err, ledger.ErrNoStatus) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ds, err := clarify.SettledByPeople(clarify.Ledger{}, got.Ledger, policy, who)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			// An older decision the memory let go (clarify.MaxRemembered) stays gone.
			if !d.At.Before(since) && !slices.ContainsFunc(book.Memory.Decisions, func(x clarify.Decision) bool { return x.ID == d.ID }) {
				owed = append(owed, d)
			}
		}
	}
	return owed, nil
}

// lastWritten is when the memory's last write landed, as GitHub stamped its parts.
func lastWritten(book ledger.MemoryBook) time.Time {
	var last time.Time
	for _, c := range book.Parts {
		if t := c.GetUpdatedAt().Time; t.After(last) {
			last = t
		}
	}
	return last
}
