package agentx

import (
	"time"

	"github.com/clarify-app/clarify/clarify"
)

// File is one AgentX ledger file: every clarification of one issue. The fields without
// Clarify in their name are the AgentX format's, as its PRD lists them.
type File struct {
	IssueNumber    int             `json:"issueNumber"`
	Clarifications []Clarification `json:"clarifications"`
	// Clarify holds what Clarify's ledger keeps beyond the format; nil in a file AgentX wrote.
	Clarify *LedgerExtra `json:"clarify,omitempty"`
}

// Clarification is one clarification record of a File.
type Clarification struct {
	// ID is CLR-<issue>-<seq>, as in Clarify.
	ID string `json:"id"`
	// From is the asking agent: the role the asker speaks for, else its login.
	From string `json:"from"`
	// To is whom it asks: a role as it is ("architect"), a person or a team after an "@"
	// ("@maria", "@octo/api"), as one types them after /clarify.
	To       string `json:"to"`
	Topic    string `json:"topic"`
	Blocking bool   `json:"blocking"`
	// Status is one of pending, answered, resolved, stale, escalated, abandoned.
	Status     string    `json:"status"`
	Round      int       `json:"round"`
	MaxRounds  int       `json:"maxRounds"`
	Created    time.Time `json:"created,omitzero"`
	StaleAfter time.Time `json:"staleAfter,omitzero"`
	ResolvedAt time.Time `json:"resolvedAt,omitzero"`
	Thread     []Entry   `json:"thread"`
	// Clarify holds what Clarify keeps of the clarification beyond the format.
	Clarify *ClarificationExtra `json:"clarify,omitempty"`
}

// Entry is one typed entry of a clarification's thread.
type Entry struct {
	Round int `json:"round"`
	// From is who wrote it: a login in a file Clarify wrote, an agent's name in AgentX's.
	From string `json:"from"`
	// Type is question, answer or resolution, the format's types, or one of Clarify's
	// two more: escalation and note (a stale ping, an abandonment).
	Type      string    `json:"type"`
	Body      string    `json:"body"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	// Clarify holds what Clarify keeps of the entry beyond the format.
	Clarify *EntryExtra `json:"clarify,omitempty"`
}

// LedgerExtra is what Clarify's ledger keeps of an issue that the AgentX format has no
// field for.
type LedgerExtra struct {
	// Repository is "owner/repo": the issue's ledger is signed with a key drawn from it.
	Repository string `json:"repository,omitempty"`
	// Seq is the last sequence number handed out, written only when it is not the
	// highest of the clarifications' ids (one was handed out and then refused).
	Seq int `json:"seq,omitempty"`
	// Cursor is the id of the newest issue comment the ledger has folded in.
	Cursor int64 `json:"cursor,omitempty"`
	// Rev counts the ledger's saves.
	Rev    int64 `json:"rev,omitempty"`
	Closed bool  `json:"closed,omitempty"`
	// Archives are the ids of the app's archive comments the clarifications were read from.
	Archives []int64 `json:"archives,omitempty"`
	// Labels are labels under names the repository chose that the app put on the issue.
	Labels []string `json:"labels,omitempty"`
	// Head is the digest of the round the status comment was created with.
	Head string `json:"head,omitempty"`
	// Hints are what the app's runs noted of the repository for the issue's next run.
	Hints clarify.Hints `json:"hints,omitzero"`
	// Saved is when the app saved this revision (clarify.Ledger.Saved).
	Saved time.Time `json:"saved,omitzero"`
	// Read is when the run that saved it read the issue (clarify.Ledger.Read).
	Read time.Time `json:"read,omitzero"`
	// Relations are the decision issues that stand for its blocking clarifications in
	// GitHub's own model (clarify.Ledger.Relations): an import keeps them, so that the next
	// run takes their edges off rather than opening second ones.
	Relations   []clarify.Relation `json:"relations,omitempty"`
	Assumptions []Assumption       `json:"assumptions,omitempty"`
}

// ClarificationExtra is what Clarify keeps of a clarification that the AgentX format has
// no field for.
type ClarificationExtra struct {
	// Asker is the asking account and its role, when From alone does not say it: written
	// whenever the asker has a login.
	Asker *clarify.Party `json:"asker,omitempty"`
	// Type is the ask's type (mutually-exclusive-requirements, missing-external-data,
	// security-decision), not an entry's.
	Type       string           `json:"type,omitempty"`
	Options    []clarify.Option `json:"options,omitempty"`
	Fallback   string           `json:"fallback,omitempty"`
	Evidence   []string         `json:"evidence,omitempty"`
	UpdatedAt  time.Time        `json:"updatedAt,omitzero"`
	Resolution string           `json:"resolution,omitempty"`
	// Precedent is the repository's earlier decision offered to the clarification.
	Precedent *clarify.Precedent `json:"precedent,omitempty"`
	// Ref, State and Nonce are the asker's own correlation id, its opaque state and its
	// dispatched ask's nonce.
	Ref   string `json:"ref,omitempty"`
	State string `json:"state,omitempty"`
	Nonce string `json:"nonce,omitempty"`
	// Expect is the kind of answer the current round takes ("number 1..100").
	Expect string `json:"expect,omitempty"`
	// Needs is how many people's answers each round needs, when more than one.
	Needs int `json:"needs,omitempty"`
}

// EntryExtra is what Clarify keeps of a thread entry that the AgentX format has no field for.
type EntryExtra struct {
	// CommentID is the issue comment the entry was read from.
	CommentID int64 `json:"commentId,omitempty"`
	// Edited says that comment had been edited when it was read.
	Edited bool `json:"edited,omitempty"`
	// Value is an answer's typed value, as JSON.
	Value clarify.Value `json:"value,omitempty"`
}

// Assumption is one line of the issue's assumption log (/assume, or a fallback taken on
// timeout); the AgentX format has no assumption log, so it lives in LedgerExtra.
type Assumption struct {
	Decision      string    `json:"decision"`
	Confidence    string    `json:"confidence,omitempty"`
	Risk          string    `json:"risk,omitempty"`
	From          string    `json:"from"`
	CommentID     int64     `json:"commentId,omitempty"`
	Timestamp     time.Time `json:"timestamp,omitzero"`
	Clarification string    `json:"clarification,omitempty"`
	// Source is "assume" for /assume and "timeout_assumed" for a fallback taken on timeout.
	Source string `json:"source"`
}

// Repo is the repository the file's issue belongs to, "" when the file does not say.
func (f File) Repo() string {
	if f.Clarify == nil {
		return ""
	}
	return f.Clarify.Repository
}
