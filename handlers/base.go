package handlers

import (
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v60/github"
	"github.com/palantir/go-githubapp/githubapp"

	"github.com/clarify-app/clarify/repoconfig"
)

// Log keys added to every line a handler logs, beside go-githubapp's delivery, event,
// installation and repository keys.
const (
	LogKeyIssue  = "github_issue"
	LogKeyAction = "github_action"
	LogKeySender = "github_sender"
)

// Label is one of the labels the app keeps true, with the colour and description it is
// created with when the repository lacks it.
type Label struct {
	Name        string
	Color       string
	Description string
}

// The default labels (DESIGN.md, "What users see").
var (
	DefaultLabelActive    = Label{repoconfig.DefaultLabelActive, "1d76db", "A clarification is open in this issue"}
	DefaultLabelStale     = Label{repoconfig.DefaultLabelStale, "fbca04", "A clarification has waited past its SLA"}
	DefaultLabelEscalated = Label{repoconfig.DefaultLabelEscalated, "d93f0b", "A clarification needs a maintainer's decision"}
)

// Base is what every handler shares: the client creator, the clock, the app's identity,
// the ledger key and the per-issue locks.
type Base struct {
	Clients githubapp.ClientCreator
	// Now is the clock; time enters the domain only through it.
	Now func() time.Time
	// AppSlug is the app's slug; its comments are written by "<slug>[bot]".
	AppSlug string
	// LedgerKey keys the MAC of the hidden ledger.
	LedgerKey []byte
	// Configs loads each repository's .github/clarify.yml.
	Configs *ConfigLoader
	Locks   IssueLocks

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
	}
}

// labels returns the three labels under the repository's names, with our colours.
func labelsOf(names repoconfig.Labels) [3]Label {
	out := [3]Label{DefaultLabelActive, DefaultLabelStale, DefaultLabelEscalated}
	out[0].Name, out[1].Name, out[2].Name = names.Active, names.Stale, names.Escalated
	return out
}

// hasOurLabel reports whether an issue carries one of the repository's Clarify labels.
func (b *Base) hasOurLabel(owner, repo string, labels []*github.Label) bool {
	names := b.Configs.Labels(owner, repo)
	for _, lb := range labels {
		switch lb.GetName() {
		case names.Active, names.Stale, names.Escalated:
			return true
		}
	}
	return false
}

// BotLogin is the login GitHub gives the app's own comments.
func (b *Base) BotLogin() string { return b.AppSlug + "[bot]" }

// isSelf reports whether a user is the app itself.
func (b *Base) isSelf(u *github.User) bool {
	return u != nil && strings.EqualFold(u.GetLogin(), b.BotLogin())
}

func (b *Base) labelKnown(repo, name string) bool {
	b.labelsMu.Lock()
	defer b.labelsMu.Unlock()
	return b.labelsKnown[repo+"\x00"+name]
}

func (b *Base) setLabelKnown(repo, name string) {
	b.labelsMu.Lock()
	defer b.labelsMu.Unlock()
	if b.labelsKnown == nil {
		b.labelsKnown = map[string]bool{}
	}
	b.labelsKnown[repo+"\x00"+name] = true
}
