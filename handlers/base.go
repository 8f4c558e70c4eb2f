package handlers

import (
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/clarify"
)

// Log keys added to every line a handler logs, beside go-githubapp's delivery, event,
// installation and repository keys.
const (
	LogKeyIssue  = "github_issue"
	LogKeyAction = "github_action"
	LogKeySender = "github_sender"
	// LogKeyComment is the id of the comment a line is about.
	LogKeyComment = "comment_id"
)

// Base is what every handler shares: the client creator, the clock, the app's identity,
// the ledger key and the per-issue locks.
type Base struct {
	Clients githubapp.ClientCreator
	// Now is the clock; time enters the domain only through it.
	Now func() time.Time
	// AppSlug is the app's slug; its comments are written by "<slug>[bot]".
	AppSlug string
	// LedgerKey keys the MAC of the hidden ledger (through IssueLedgerKey).
	LedgerKey []byte
	// PreviousKeys still verify ledgers written before a key rotation.
	PreviousKeys [][]byte
	// Configs loads each repository's .github/clarify.yml.
	Configs *ConfigLoader
	// Locks keep one issue's runs one at a time within this process.
	Locks IssueLocks
	// Index keeps every active issue's next deadline, so the sweep reads only the issues
	// that are due; each run that saves a ledger updates its entry.
	Index DeadlineIndex
	// OnSaved, when set, is given each run's ledger as loaded and as saved, for the app's
	// metrics; nil costs nothing.
	OnSaved func(before, after clarify.Ledger)

	// active knows the issues with an ask in flight or an open clarification, for the
	// cheap filters.
	active activeIssues
	// memory lets a run read only what is new in an issue this process ran before.
	memory issueMemories
	// revs remembers the newest ledger revision of each issue, so an older one put back
	// into the status comment is not trusted.
	revs revMemory
	// labelsSet remembers the app's own labels this process last set on each issue.
	labelsSet labelMemory
	// runFailures counts each issue's failed runs in a row, to space their retries.
	runFailures failureCounts
	// dash holds the repositories whose dashboard the next sweep writes (dashboard.go).
	dash dashboards
	// members remembers team memberships across runs.
	members membershipCache
	// waitsChanged is the repositories where a run saved wait-for edges since the sweep
	// last looked for deadlocks.
	waitsChanged repoSet
	// savedAt remembers this process's last save of each issue, for the sweep's walk.
	savedAt savedMemory

	labelsMu sync.Mutex
	// labelsKnown remembers repository labels seen to exist, so each is looked up once per
	// process rather than once per event.
	labelsKnown map[string]bool
}

// NewBase returns a Base with the default labels and policy.
func NewBase(clients githubapp.ClientCreator, appSlug string, ledgerKey []byte, now func() time.Time) *Base {
	return &Base{
		Clients:   clients,
		Now:       now,
		AppSlug:   appSlug,
		LedgerKey: ledgerKey,
		Configs:   NewConfigLoader(DefaultConfigTTL, now),
		Index:     &MemoryIndex{},
		members:   membershipCache{now: now},
	}
}

// BotLogin is the login GitHub gives the app's own comments.
func (b *Base) BotLogin() string { return b.AppSlug + "[bot]" }

// isSelf reports whether a user is the app itself.
func (b *Base) isSelf(u *github.User) bool {
	return u != nil && strings.EqualFold(u.GetLogin(), b.BotLogin())
}
