package clarify

import "time"

// Status is where a clarification stands in the protocol (docs/operations.md says how it moves).
type Status string

// The statuses of a clarification; Resolved and Abandoned are final.
const (
	Pending   Status = "pending"
	Answered  Status = "answered"
	Stale     Status = "stale"
	Escalated Status = "escalated"
	Resolved  Status = "resolved"
	Abandoned Status = "abandoned"
)

// Open reports whether the clarification can still move (not resolved, not abandoned).
func (s Status) Open() bool { return s != Resolved && s != Abandoned }

// Awaiting reports whether an answer from the target is what moves the clarification next.
func (s Status) Awaiting() bool { return s == Pending || s == Stale || s == Escalated }

// TargetKind says how a target name is resolved to the people who may answer.
type TargetKind string

// The kinds of target an ask can address.
const (
	TargetRole  TargetKind = "role"  // a role configured for the repository
	TargetLogin TargetKind = "login" // one GitHub account
	TargetTeam  TargetKind = "team"  // an @org/team
)

// Target is whom a clarification is addressed to.
type Target struct {
	Kind TargetKind `json:"kind"`
	// Name is the role name, the login (no @) or "org/team".
	Name string `json:"name"`
}

// Party is one side of a clarification: the account and the role it speaks for.
type Party struct {
	Login string `json:"login"`
	Role  string `json:"role,omitempty"`
}

// Option is one of the choices an asker offers ("a) use UTC").
type Option struct {
	Key  string `json:"key"`
	Text string `json:"text"`
}

// EntryKind is the type of one entry in a clarification's thread.
type EntryKind string

// The kinds of thread entry.
const (
	KindQuestion   EntryKind = "question"
	KindAnswer     EntryKind = "answer"
	KindResolution EntryKind = "resolution"
	KindEscalation EntryKind = "escalation"
	KindNote       EntryKind = "note"
)

// Entry is one typed item of a clarification's thread, with who wrote it and where.
type Entry struct {
	Kind      EntryKind `json:"kind"`
	Round     int       `json:"round"`
	Author    string    `json:"author"`
	CommentID int64     `json:"comment_id,omitempty"`
	At        time.Time `json:"at"`
	Text      string    `json:"text"`
	// Edited says the comment had been edited after it was posted when it was read, so the
	// text recorded may not be what the thread first showed.
	Edited bool `json:"edited,omitempty"`
	// Value is an answer's typed value, as JSON, when its round expected one (expect.go):
	// true, 42, "2026-12-01" or {"key":"b","text":"…"}; Text keeps the words as typed.
	Value Value `json:"value,omitempty"`
}

// Clarification is one question thread, CLR-<issue>-<seq>.
type Clarification struct {
	ID         string    `json:"id"`
	Asker      Party     `json:"asker"`
	Target     Target    `json:"target"`
	Topic      string    `json:"topic,omitempty"`
	Type       string    `json:"type,omitempty"`
	Blocking   bool      `json:"blocking"`
	Options    []Option  `json:"options,omitempty"`
	Fallback   string    `json:"fallback,omitempty"`
	Evidence   []string  `json:"evidence,omitempty"`
	Status     Status    `json:"status"`
	Round      int       `json:"round"`
	MaxRounds  int       `json:"max_rounds"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at,omitzero"`
	StaleAfter time.Time `json:"stale_after,omitzero"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
	// Resolution is the decision recorded when the clarification was resolved.
	Resolution string  `json:"resolution,omitempty"`
	Thread     []Entry `json:"thread"`
	// Precedent is the repository's earlier decision offered to it (precedent.go).
	Precedent *Precedent `json:"precedent,omitempty"`
	// Ref is the asker's own correlation id, State the opaque string it wants back when
	// woken (asker.go); both as the ask gave them, returned byte for byte.
	Ref   string `json:"ref,omitempty"`
	State string `json:"state,omitempty"`
	// Nonce is a dispatched ask's nonce (asker.go): which asker's ask this is.
	Nonce string `json:"nonce,omitempty"`
	// Expect is the kind of answer the current round takes (Expect.String: "yes/no",
	// "number 1..100", …); empty for any reply. Like the options, it is the round's.
	Expect string `json:"expect,omitempty"`
	// Needs is how many people's answers each round needs (needs.go); 0 or 1: one.
	Needs int `json:"needs,omitempty"`
}

// Assumption is one line of the issue's assumption log (/assume, or a fallback taken on timeout).
type Assumption struct {
	Decision   string    `json:"decision"`
	Confidence string    `json:"confidence,omitempty"`
	Risk       string    `json:"risk,omitempty"`
	Author     string    `json:"author"`
	CommentID  int64     `json:"comment_id,omitempty"`
	At         time.Time `json:"at"`
	// Clarification names the clarification the assumption settles, if any.
	Clarification string `json:"clarification,omitempty"`
	// Source is "assume" for /assume and "timeout_assumed" for a fallback taken on timeout.
	Source string `json:"source"`
}

// SourceTimeoutAssumed is the Source of an assumption that a fallback taken on timeout
// recorded.
const SourceTimeoutAssumed = "timeout_assumed"

// LedgerVersion is the schema version written into every ledger.
const LedgerVersion = 1

// Ledger is the whole protocol state of one issue: a fold over the issue's comments.
type Ledger struct {
	Version int `json:"v"`
	Issue   int `json:"issue"`
	// Seq is the last clarification sequence number handed out in this issue.
	Seq int `json:"seq"`
	// Cursor is the id of the newest comment already applied; GitHub comment ids grow
	// monotonically, so anything at or below it has been folded in.
	Cursor int64 `json:"cursor"`
	// Rev counts saves, so a reader can tell a newer ledger from an older one.
	Rev            int64           `json:"rev"`
	Closed         bool            `json:"closed,omitempty"`
	Clarifications []Clarification `json:"clarifications"`
	Assumptions    []Assumption    `json:"assumptions,omitempty"`
	// Archives lists the app's archive comments, in order, that hold final clarifications
	// moved out of this ledger when it grew too large for one comment.
	Archives []int64 `json:"archives,omitempty"`
	// Labels lists the labels under names the repository chose that the app put on the
	// issue and has not taken off: people may use such a name too, and the app removes
	// only what it put on. The default names are the app's wherever they are, so they are
	// not listed, and a ledger written before this field needs nothing from it.
	Labels []string `json:"labels,omitempty"`
	// Head is the digest of the round the status comment was created with above its table
	// (the issue's first, sparing a comment of its own), so that each save keeps that
	// round as written and an edit of it by hand is told apart.
	Head string `json:"head,omitempty"`
	// Hints are what earlier runs learned of the repository that this issue's next run
	// may take without asking GitHub (hints.go).
	Hints Hints `json:"hints,omitzero"`
	// Saved is when the app saved this revision, by the writer's clock: the app's save is
	// the only edit it makes of its status comment, so a comment GitHub shows updated well
	// after it holds a body put back by someone else (ledger.SaveSkew). Zero in a ledger
	// written before the field, or by `bot ledger import`.
	Saved time.Time `json:"saved,omitzero"`
	// Read is when the run that saved this revision began reading the issue, by the same
	// clock as Saved: comments made after it are past the cursor, and a later run that reads
	// only the comments of the last minutes must reach back that far (handlers/window.go).
	// Zero in a ledger written before the field, or by `bot ledger import`.
	Read time.Time `json:"read,omitzero"`
	// Relations are the decision issues open for blocking clarifications where the
	// repository shows them in GitHub's own model (relations.go).
	Relations []Relation `json:"relations,omitempty"`
}
