package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/appissues"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/repoconfig"
)

// The run's calls to the repository's decision memory (package decisions), and what that
// package reaches of the run (decisions.Run) and of the process (decisions.Host).

// precedentsAndOffers settles what precedent settles now, then finds the earlier decisions
// to offer the new questions the effects post.
func (run *issueRun) precedentsAndOffers(ctx context.Context) error {
	f := &run.folded
	l, effects, offers, err := decisions.PrecedentsAndOffers(ctx, run, f.ledger, f.effects)
	if err != nil {
		return err
	}
	f.ledger, f.effects = l, effects
	run.inherits, run.offers = offers.From, offers.ByKey
	return nil
}

// FlushDecisions writes every repository's decisions waiting for the memory's next write,
// for the sweep and a process that stops; a repository whose write fails keeps them for
// the next.
func (b *Base) FlushDecisions(ctx context.Context) { decisions.Flush(ctx, memoryHost{b}) }

// rememberOffersAndDecisions writes into the ledger what each new question was offered,
// and into the repository's memory the decisions people made in this run.
func (run *issueRun) rememberOffersAndDecisions(ctx context.Context) error {
	return decisions.Remember(ctx, run, decisions.Offers{ByKey: run.offers, From: run.inherits}, run.ledger, &run.folded.ledger)
}

var _ decisions.Run = (*issueRun)(nil)

// Host is the process the run belongs to, as the decision memory reaches it.
func (run *issueRun) Host() decisions.Host { return memoryHost{run.Base} }

// Client is the run's client.
func (run *issueRun) Client() *github.Client { return run.client }

// Ref is the run's issue.
func (run *issueRun) Ref() clarify.IssueRef { return run.ref }

// Decisions is the repository's decisions config as the run read it.
func (run *issueRun) Decisions() repoconfig.Decisions { return run.cfg.Decisions }

// Policy is the repository's policy as the run read it.
func (run *issueRun) Policy() clarify.Policy { return run.cfg.Policy }

// StatusID is the issue's status comment, 0 when there is none yet.
func (run *issueRun) StatusID() int64 { return run.status.GetID() }

// Posted reports whether one of the app's comments already carries the effect key's marker.
func (run *issueRun) Posted(key string) bool { return run.posted(key) }

// PostOnce posts body under mark unless one of the app's comments carries it (post.go).
func (run *issueRun) PostOnce(ctx context.Context, mark, body string) (*github.IssueComment, error) {
	return run.postOnce(ctx, mark, body)
}

// React puts the effect's reaction on its comment.
func (run *issueRun) React(ctx context.Context, e clarify.Effect) error {
	return react(ctx, run.client, run.ref, e)
}

// Actor says who login is, through the run's look-ups (actors.go).
func (run *issueRun) Actor(ctx context.Context, login string) (clarify.Actor, error) {
	if run.lookups == nil {
		run.lookups = newActorLookups(run.client, run.ref, &run.caches, run.BotLogin())
	}
	return run.lookups.now(ctx, login)
}

// NoteWrite notes a write of the memory, for the run's read-back (checkMemoryWrites).
func (run *issueRun) NoteWrite(w decisions.Write) { run.memoryWrites = append(run.memoryWrites, w) }

// memoryHost is the process as the decision memory reaches it.
type memoryHost struct{ b *Base }

var _ decisions.Host = memoryHost{}

// Now is the process's clock.
func (h memoryHost) Now() time.Time { return h.b.Now() }

// Reader reads the app's comments under its keys.
func (h memoryHost) Reader() ledger.Reader { return h.b.reader() }

// Signed is body signed as the app's comment in issue ref.
func (h memoryHost) Signed(ref clarify.IssueRef, body string) string { return h.b.signed(ref, body) }

// Lock takes the process's lock of key.
func (h memoryHost) Lock(ctx context.Context, key string) (func(), error) {
	return h.b.locks.Lock(ctx, key)
}

// Recent shares the decisions people made lately between replicas; nil for none.
func (h memoryHost) Recent() decisions.Recent {
	if h.b.recent == nil {
		return nil
	}
	return h.b.recent
}

// Batches says decisions wait for the memory's next write (Mode.batchesMemory).
func (h memoryHost) Batches() bool { return h.b.mode.batchesMemory() }

// AppIssues keeps the app's own issues.
func (h memoryHost) AppIssues() *appissues.Keeper { return h.b.appIssues }

// Policy is the repository's policy, from its config.
func (h memoryHost) Policy(ctx context.Context, client *github.Client, owner, repo string) (clarify.Policy, error) {
	cfg, err := h.b.configs.Load(ctx, client, owner, repo)
	return cfg.Policy, err
}

// Actors says who a login is in issue ref, one look-up of each login for all calls.
func (h memoryHost) Actors(client *github.Client, ref clarify.IssueRef) func(ctx context.Context, login string) (clarify.Actor, error) {
	lookups := newActorLookups(client, ref, &h.b.caches, h.b.BotLogin())
	return lookups.now
}

// Caches are what the process remembers of each repository's memory.
func (h memoryHost) Caches() decisions.Caches { return memoryCaches{&h.b.caches} }

// memoryCaches are the decision memory's caches among the process's (cache.go).
type memoryCaches struct{ c *caches }

// Issue is the repository's decisions issue as last found.
func (m memoryCaches) Issue(repo string) (int, bool) { return m.c.decisionIssues.get(repo) }

// SetIssue notes the repository's decisions issue.
func (m memoryCaches) SetIssue(repo string, n int) { m.c.decisionIssues.put(repo, n) }

// ForgetIssue drops the repository's decisions issue.
func (m memoryCaches) ForgetIssue(repo string) { m.c.decisionIssues.forget(repo) }

// Book is the repository's decisions while fresh, else read once for every caller at once.
func (m memoryCaches) Book(repo string, read func() (ledger.MemoryBook, bool, error)) (ledger.MemoryBook, error) {
	book, _, err := m.c.decisionBooks.load(repo, read)
	return book, err
}

// SetBook notes the repository's decisions as just written.
func (m memoryCaches) SetBook(repo string, book ledger.MemoryBook) { m.c.decisionBooks.put(repo, book) }

// Pending holds the decisions waiting for the memory's next write.
func (m memoryCaches) Pending() *decisions.Pending { return &m.c.pendingMemory }
