package decisions

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

// Pending holds, per repository, the decisions people made that this process has
// not yet written into the memory, and when it last wrote it. Offers read them with the
// memory (offerMemory), so none is missed while it waits.
type Pending struct {
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
func (p *Pending) note(client *github.Client, owner, repo string, ds []clarify.Decision, now time.Time) bool {
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
func (p *Pending) repoLocked(owner, repo string) *pendingRepo {
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
func (p *Pending) firstLook(owner, repo string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.repoLocked(owner, repo)
	first := !r.looked
	r.looked = true
	return first
}

func (p *Pending) again(owner, repo string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.repoLocked(owner, repo).looked = false
}

// of returns the repository's pending decisions.
func (p *Pending) of(owner, repo string) []clarify.Decision {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.repos[owner+"/"+repo]; r != nil {
		return slices.Clone(r.ds)
	}
	return nil
}

// done forgets the decisions a write took and records when it was made.
func (p *Pending) done(owner, repo string, ds []clarify.Decision, at time.Time) {
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
func (p *Pending) release(owner, repo string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.repoLocked(owner, repo).writing = false
}

// waiting lists the repositories with decisions to write.
func (p *Pending) waiting() []*pendingRepo {
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
func noteDecisions(ctx context.Context, r Run, ds []clarify.Decision) error {
	h := r.Host()
	if h.Recent() != nil {
		if err := h.Recent().Add(ctx, r.Ref().Owner+"/"+r.Ref().Repo, ds); err != nil {
			// Advice only: the memory's write below is what keeps the decision.
			zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions not shared with the other replicas; their offers see them once written")
		}
	}
	if !h.Batches() {
		return recordDecisions(ctx, h, r.Client(), r.Ref(), r.NoteWrite, ds)
	}
	if _, err := repairOnce(ctx, h, r.Client(), r.Ref(), nil); err != nil {
		return err
	}
	if !h.Caches().Pending().note(r.Client(), r.Ref().Owner, r.Ref().Repo, ds, h.Now()) {
		zerolog.Ctx(ctx).Debug().Int("decisions", len(ds)).Msg("Decisions wait for the memory's next write")
		return nil
	}
	return flushMemory(ctx, h, r.Client(), r.Ref())
}

// flushMemory writes the repository's pending decisions into its memory, in one write.
func flushMemory(ctx context.Context, h Host, client *github.Client, ref clarify.IssueRef) error {
	ds := h.Caches().Pending().of(ref.Owner, ref.Repo)
	if len(ds) == 0 {
		h.Caches().Pending().release(ref.Owner, ref.Repo)
		return nil
	}
	if err := recordDecisions(ctx, h, client, ref, nil, ds); err != nil {
		h.Caches().Pending().release(ref.Owner, ref.Repo)
		return err
	}
	h.Caches().Pending().done(ref.Owner, ref.Repo, ds, h.Now())
	return nil
}

// Flush writes every repository's pending decisions, for the sweep and a process
// that stops; a repository whose write fails keeps them for the next.
func Flush(ctx context.Context, h Host) {
	for _, r := range h.Caches().Pending().waiting() {
		ref := clarify.IssueRef{Owner: r.owner, Repo: r.repo}
		if err := flushMemory(ctx, h, r.client, ref); err != nil {
			zerolog.Ctx(ctx).Error().Err(err).Str("repository", r.owner+"/"+r.repo).Msg("Decisions not written into the memory; the next sweep tries again")
		}
	}
}

// withPending is book with the decisions it may not hold yet recorded in it, for offers:
// those waiting for this process's next write, those a process before it left owed (read
// says book is the memory as read, which the look starts from), and those the replicas
// made lately.
func withPending(ctx context.Context, h Host, client *github.Client, book ledger.MemoryBook, read bool, owner, repo string) ledger.MemoryBook {
	var ds []clarify.Decision
	if read {
		owed, err := repairOnce(ctx, h, client, clarify.IssueRef{Owner: owner, Repo: repo}, &book)
		if err != nil {
			zerolog.Ctx(ctx).Warn().Err(err).Msg("Decisions owed to the memory not looked for; the next read looks again")
		}
		ds = owed
	}
	ds = append(ds, h.Caches().Pending().of(owner, repo)...)
	if h.Recent() != nil {
		recent, err := h.Recent().Recent(ctx, owner+"/"+repo)
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
