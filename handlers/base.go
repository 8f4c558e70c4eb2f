package handlers

import (
	"context"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/clarify"
	"github.com/clarify-app/clarify/handlers/appissues"
	"github.com/clarify-app/clarify/handlers/checks"
	"github.com/clarify-app/clarify/handlers/decisions"
	"github.com/clarify-app/clarify/internal/ghtransport"
	"github.com/clarify-app/clarify/ledger"
)

// Log keys added to every line a handler logs, beside go-githubapp's delivery, event,
// installation and repository keys.
const (
	LogKeyIssue  = "github_issue"
	LogKeyAction = "github_action"
	LogKeySender = "github_sender"
	// LogKeyComment is the id of the comment a line is about.
	LogKeyComment = ledger.LogKeyComment
)

// Base is what every handler shares: the client creator, the clock, the app's identity
// and keys, the mode, the per-issue locks, and what the process remembers between runs.
// NewBase sets every field from its Options; the handlers and sweeps only read them.
type Base struct {
	clients githubapp.ClientCreator
	// Identity is the app's account and keys.
	Identity
	// now is the clock; time enters the domain only through it.
	now func() time.Time
	// configs loads each repository's .github/clarify.yml.
	configs *ConfigLoader
	// locks keep one issue's runs one at a time within this process.
	locks IssueLocks
	// index keeps every active issue's next deadline, so the sweep reads only the issues
	// that are due; each run that saves a ledger updates its entry.
	index DeadlineIndex
	// onSaved, when set, is given each run's ledger as loaded and as saved, for the app's
	// metrics; nil costs nothing.
	onSaved func(before, after clarify.Ledger)
	// settleDelay is how long a workflow run waits before reading its edit back (guard.go).
	settleDelay time.Duration
	// recent shares the decisions people made lately between replicas, for offers; nil
	// for a lone process.
	recent RecentDecisions

	// mode is how this process runs issues beside others (mode.go).
	mode Mode
	// caches are what this process remembers between runs (cache.go).
	caches
	// checks writes the check runs of the pull requests that link an issue.
	checks *checks.Checks
	// appIssues keeps the app's own issues of each repository: the labels naming the
	// decision memory and the dashboard, and the dashboard the sweeps write.
	appIssues *appissues.Keeper
}

// Options are everything a Base is built from. NewBase takes them once; nothing is set
// on a Base afterwards.
type Options struct {
	// Clients makes the app's and each installation's GitHub clients.
	Clients githubapp.ClientCreator
	// AppSlug, LedgerKey and PreviousKeys are the app's identity (Identity).
	AppSlug      string
	LedgerKey    []byte
	PreviousKeys [][]byte
	// Now is the clock; nil is the wall clock.
	Now func() time.Time
	// Mode is how this process runs issues beside others (mode.go).
	Mode Mode
	// OnSaved, when set, is given each run's ledger as loaded and as saved, for the app's
	// metrics; nil costs nothing.
	OnSaved func(before, after clarify.Ledger)
	// SettleDelay is how long a workflow run waits before reading its edit back (guard.go;
	// zero: DefaultSettleDelay; negative: none).
	SettleDelay time.Duration
	// OneRepo reads each repository's own config file only, not its organisation's default
	// (NewRepoConfigLoader): a workflow's token reaches no other repository.
	OneRepo bool
	// IssueLeases, when set, are the leases the replicas share, taken after this process's
	// own per-issue lock (IssueLocks.Shared).
	IssueLeases IssueLocker
	// Index keeps the deadlines; nil is this process's own (LocalIndex).
	Index DeadlineIndex
	// Recent shares the decisions people made lately between replicas; nil for a lone
	// process.
	Recent RecentDecisions
}

// NewBase returns a Base built from opts, with the default labels and policy.
func NewBase(opts Options) *Base {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	configs := NewConfigLoader(DefaultConfigTTL, now)
	if opts.OneRepo {
		configs = NewRepoConfigLoader(DefaultConfigTTL, now)
	}
	index := opts.Index
	if index == nil {
		index = &LocalIndex{}
	}
	b := &Base{
		mode:        opts.Mode,
		clients:     opts.Clients,
		now:         now,
		Identity:    Identity{AppSlug: opts.AppSlug, LedgerKey: opts.LedgerKey, PreviousKeys: opts.PreviousKeys},
		configs:     configs,
		locks:       IssueLocks{Shared: opts.IssueLeases},
		index:       index,
		onSaved:     opts.OnSaved,
		settleDelay: settleDelayOf(opts.SettleDelay),
		recent:      opts.Recent,
		caches:      newCaches(now),
	}
	mode := opts.Mode
	b.appIssues = appissues.New(appissues.Config{Reader: b.reader, Decisions: func(ctx context.Context, client *github.Client, owner, repo string) (ledger.MemoryBook, error) {
		return decisions.Read(ctx, memoryHost{b}, client, owner, repo)
	},
		ReadBack: mode.concurrent(), Settle: func() time.Duration { return b.settleDelay }, Attempts: sharedAttempts})
	b.checks = checks.New(opts.AppSlug, now, checkIssues{b}, mode.seesEveryEvent(), maxRemembered)
	return b
}

// InstallationClient returns the installation's client, and ctx marked for it, so that
// the pacer counts the requests made with both on the installation's window.
func (b *Base) InstallationClient(ctx context.Context, id int64) (context.Context, *github.Client, error) {
	client, err := b.clients.NewInstallationClient(id)
	return ghtransport.WithInstallation(ctx, id), client, err
}

// Now is the process's clock; time enters the domain only through it.
func (b *Base) Now() time.Time { return b.now() }

// Clients is the client creator the handlers and the sweep make their clients with.
func (b *Base) Clients() githubapp.ClientCreator { return b.clients }

// Configs is the loader of each repository's .github/clarify.yml.
func (b *Base) Configs() *ConfigLoader { return b.configs }

// Index is the deadline index: every active issue's next deadline, for the sweep.
func (b *Base) Index() DeadlineIndex { return b.index }
