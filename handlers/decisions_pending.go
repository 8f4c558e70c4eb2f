package handlers

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/rs/zerolog"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/ledger"
)

// memoryWriteEvery is how often a lone process writes one repository's decision memory at
// most, as the dashboard: the first decision in a quiet minute is written at once, and
// those that follow within the minute wait for the next run past it or the next sweep,
// which write them together. A burst of resolves then costs a few edits, not one each.
const memoryWriteEvery = time.Minute

// pendingDecisions holds, per repository, the decisions people made that this process has
// not yet written into the memory, and when it last wrote it. Offers read them with the
// memory (offerMemory), so none is missed while it waits.
type pendingDecisions struct {
	mu    sync.Mutex
	repos map[string]*pendingRepo
}

type pendingRepo struct {
	client      *github.Client
	owner, repo string
	ds          []clarify.Decision
	// written is when this process's last write of the memory landed, landed that one
	// has, and writing that a run is writing it now. A decision waits behind a write in
	// flight, or within memoryWriteEvery of one that landed: the memory then exists (but
	// for a first write that fails, whose run is run again and writes what waits), and
	// its last write bounds when a decision it lacks was settled (repairOwed), also when
	// the writes after it fail.
	written time.Time
	landed  bool
	writing bool
	// looked says this process has looked for decisions a process before it left owed.
	looked bool
}

// note adds ds to the repository's pending decisions and reports whether the caller is to
// write the memory now (its last write by this process is memoryWriteEvery old, or there
// was none), taking that minute's write.
func (p *pendingDecisions) note(client *github.Client, owner, repo string, ds []clarify.Decision, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.repoLocked(owner, repo)
	r.client = client
	for _, d := range ds {
		if !slices.ContainsFunc(r.ds, func(x clarify.Decision) bool { return x.ID == d.ID }) {
			r.ds = append(r.ds, d)
		}
	}
	if r.writing || r.landed && now.Sub(r.written) < memoryWriteEvery {
		return false
	}
	// The write is this caller's: the runs of a burst that note theirs meanwhile leave
	// them to it or to the next.
	r.writing = true
	return true
}

// repoLocked is the repository's entry, made when missing; p.mu is held.
func (p *pendingDecisions) repoLocked(owner, repo string) *pendingRepo {
	if p.repos == nil {
		p.repos = map[string]*pendingRepo{}
	}
	r := p.repos[owner+"/"+repo]
	if r == nil {
		r = &pendingRepo{owner: owner, repo: repo}
		p.repos[owner+"/"+repo] = r
	}
	return r
}

// firstLook reports whether this process has yet to look for decisions owed to the
// repository's memory, and takes the look; again gives it back after a look that failed.
func (p *pendingDecisions) firstLook(owner, repo string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.repoLocked(owner, repo)
	first := !r.looked
	r.looked = true
	return first
}

func (p *pendingDecisions) again(owner, repo string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.repoLocked(owner, repo).looked = false
}

// of returns the repository's pending decisions.
func (p *pendingDecisions) of(owner, repo string) []clarify.Decision {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.repos[owner+"/"+repo]; r != nil {
		return slices.Clone(r.ds)
	}
	return nil
}

// done forgets the decisions a write took and records when it was made.
func (p *pendingDecisions) done(owner, repo string, ds []clarify.Decision, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.repos[owner+"/"+repo]
	if r == nil {
		return
	}
	r.ds = slices.DeleteFunc(r.ds, func(x clarify.Decision) bool {
		return slices.ContainsFunc(ds, func(d clarify.Decision) bool { return d.ID == x.ID })
	})
	r.written, r.landed, r.writing = at, true, false
}

// release ends a write that did not land (or found nothing to write): the next decision
// is written at once.
func (p *pendingDecisions) release(owner, repo string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.repoLocked(owner, repo).writing = false
}

// waiting lists the repositories with decisions to write.
func (p *pendingDecisions) waiting() []*pendingRepo {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*pendingRepo
	for _, r := range p.repos {
		if len(r.ds) > 0 {
			out = append(out, &pendingRepo{client: r.client, owner: r.owner, repo: r.repo})
		}
	}
	return out
}

// noteDecisions records ds in the repository's memory: at once, or, when this process
// wrote it less than memoryWriteEvery ago, with the next write.
func (run *issueRun) noteDecisions(ctx context.Context, ds []clarify.Decision) error {
	if run.Recent != nil {
		if err := run.Recent.Add(ctx, run.ref.Owner+"/"+run.ref.Repo, ds); err != nil {
			// Advice only: the memory's write below is what keeps the decision.
			zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions not shared with the other replicas; their offers see them once written")
		}
	}
	if !run.mode.batchesMemory() {
		return run.recordDecisions(ctx, run.client, run.ref, run, ds)
	}
	if _, err := run.repairOnce(ctx, run.client, run.ref, nil); err != nil {
		return err
	}
	if !run.pendingMemory.note(run.client, run.ref.Owner, run.ref.Repo, ds, run.Now()) {
		zerolog.Ctx(ctx).Debug().Int("decisions", len(ds)).Msg("Decisions wait for the memory's next write")
		return nil
	}
	return run.flushMemory(ctx, run.client, run.ref)
}

// flushMemory writes the repository's pending decisions into its memory, in one write.
func (b *Base) flushMemory(ctx context.Context, client *github.Client, ref clarify.IssueRef) error {
	ds := b.pendingMemory.of(ref.Owner, ref.Repo)
	if len(ds) == 0 {
		b.pendingMemory.release(ref.Owner, ref.Repo)
		return nil
	}
	if err := b.recordDecisions(ctx, client, ref, &issueRun{}, ds); err != nil {
		b.pendingMemory.release(ref.Owner, ref.Repo)
		return err
	}
	b.pendingMemory.done(ref.Owner, ref.Repo, ds, b.Now())
	return nil
}

// FlushDecisions writes every repository's pending decisions, for the sweep and a process
// that stops; a repository whose write fails keeps them for the next.
func (b *Base) FlushDecisions(ctx context.Context) {
	for _, r := range b.pendingMemory.waiting() {
		ref := clarify.IssueRef{Owner: r.owner, Repo: r.repo}
		if err := b.flushMemory(ctx, r.client, ref); err != nil {
			zerolog.Ctx(ctx).Error().Err(err).Str("repository", r.owner+"/"+r.repo).Msg("Decisions not written into the memory; the next sweep tries again")
		}
	}
}

// withPending is book with the decisions it may not hold yet recorded in it, for offers:
// those waiting for this process's next write, those a process before it left owed (read
// says book is the memory as read, which the look starts from), and those the replicas
// made lately.
func (b *Base) withPending(ctx context.Context, client *github.Client, book ledger.MemoryBook, read bool, owner, repo string) ledger.MemoryBook {
	var ds []clarify.Decision
	if read {
		owed, err := b.repairOnce(ctx, client, clarify.IssueRef{Owner: owner, Repo: repo}, &book)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions owed to the memory not looked for; the next read looks again")
		}
		ds = owed
	}
	ds = append(ds, b.pendingMemory.of(owner, repo)...)
	if b.Recent != nil {
		recent, err := b.Recent.Recent(ctx, owner+"/"+repo)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Msg("The replicas' recent decisions not read; offered from the memory alone")
		}
		ds = append(recent, ds...)
	}
	if len(ds) == 0 {
		return book
	}
	book.Memory.Decisions = slices.Clone(book.Memory.Decisions)
	for _, d := range ds {
		book.Memory.Record(d)
	}
	return book
}
