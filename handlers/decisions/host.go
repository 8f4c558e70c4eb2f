package decisions

import (
	"context"
	"errors"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/appissues"
	"github.com/clarify-app/clarify/ledger"
	"github.com/clarify-app/clarify/render"
	"github.com/clarify-app/clarify/repoconfig"
)

// Host is what the decision memory needs of the process it runs in: the clock, the app's
// keys, the locks, the stores replicas share, and the caches.
type Host interface {
	// Now is the process's clock.
	Now() time.Time
	// Reader reads the app's comments and the memory under its keys.
	Reader() ledger.Reader
	// Signed is body signed as the app's comment in issue ref, where its account is shared.
	Signed(ref clarify.IssueRef, body string) string
	// Lock takes the process's lock of key, for the memory's read-modify-write.
	Lock(ctx context.Context, key string) (unlock func(), err error)
	// Recent shares the decisions people made lately between replicas; nil for none.
	Recent() Recent
	// Batches says decisions wait for the memory's next write, at most once a minute.
	Batches() bool
	// AppIssues keeps the app's own issues, whose label names the memory's issue.
	AppIssues() *appissues.Keeper
	// Policy is the repository's policy, from its config.
	Policy(ctx context.Context, client *github.Client, owner, repo string) (clarify.Policy, error)
	// Actors says who a login is in issue ref, for the decisions people made.
	Actors(client *github.Client, ref clarify.IssueRef) func(ctx context.Context, login string) (clarify.Actor, error)
	// Caches are what the process remembers of each repository's memory.
	Caches() Caches
}

// Caches are the memory's caches in the process: the issue holding each repository's
// decisions, the decisions as last read or written (for TTL), and those waiting for the
// next write.
type Caches interface {
	// Issue is the repository's decisions issue as last found.
	Issue(repo string) (int, bool)
	// SetIssue and ForgetIssue note or drop it.
	SetIssue(repo string, n int)
	ForgetIssue(repo string)
	// Book is the repository's decisions while fresh, else read once for every caller that
	// asks at the same moment; read says whether to keep what it read.
	Book(repo string, read func() (book ledger.MemoryBook, keep bool, err error)) (ledger.MemoryBook, error)
	// SetBook notes the repository's decisions as just written.
	SetBook(repo string, book ledger.MemoryBook)
	// Pending holds the decisions waiting for the memory's next write.
	Pending() *Pending
}

// Recent is the decisions the replicas made lately (handlers.RecentDecisions).
type Recent interface {
	// Add records ds as made now.
	Add(ctx context.Context, repo string, ds []clarify.Decision) error
	// Recent returns the repository's decisions added lately, oldest first.
	Recent(ctx context.Context, repo string) ([]clarify.Decision, error)
}

// Run is what the decision memory needs of one run of one issue (handlers' issueRun).
type Run interface {
	// Host is the process the run belongs to.
	Host() Host
	// Client and Ref are the run's client and issue.
	Client() *github.Client
	Ref() clarify.IssueRef
	// Decisions and Policy are the repository's config as the run read it.
	Decisions() repoconfig.Decisions
	Policy() clarify.Policy
	// StatusID is the issue's status comment, 0 when there is none yet.
	StatusID() int64
	// Posted reports whether one of the app's comments already carries the effect key's
	// marker; PostOnce posts body under mark unless one does.
	Posted(key string) bool
	PostOnce(ctx context.Context, mark, body string) (*github.IssueComment, error)
	// React puts the effect's reaction on its comment.
	React(ctx context.Context, e clarify.Effect) error
	// Actor says who login is, as the run's other look-ups do.
	Actor(ctx context.Context, login string) (clarify.Actor, error)
	// NoteWrite notes a write of the memory, for the run's read-back.
	NoteWrite(w Write)
}

// Write is a write of the repository's decisions that a run made, for its read-back.
type Write struct {
	At    time.Time // when it was written, by this process's clock
	Issue int       // the decisions issue written
	// Kept says whether the memory read back holds the write's change.
	Kept func(clarify.Memory) bool
	// Redo makes the change again, on a fresh read, and notes that write in its turn.
	Redo func() error
}

// ErrLedgerMoved is handlers.ErrLedgerMoved: what changed under the run (here, another run
// made the decisions issue meanwhile) makes the run start over.
var ErrLedgerMoved = errors.New("the issue's ledger moved while this run worked on it")

// keysOf are the keys of issue ref from the app's keyring.
func keysOf(h Host, ref clarify.IssueRef) render.IssueKeys {
	return h.Reader().Keys.Issue(ref.Owner, ref.Repo, ref.Number)
}
