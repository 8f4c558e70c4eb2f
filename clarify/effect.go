package clarify

// EffectKind names something Apply wants said or done in the issue.
type EffectKind string

// The effects Apply returns; the status comment and labels are not effects, since the
// handlers reconcile them to the ledger after every event.
const (
	// EffectPostRound mirrors one question round as a structured comment.
	EffectPostRound EffectKind = "round"
	// EffectReply answers a comment: a refusal, a listing, one thread shown.
	EffectReply EffectKind = "reply"
	// EffectReact acknowledges a comment taken as input with a reaction.
	EffectReact EffectKind = "react"
	// EffectEscalate announces an escalation to the configured maintainers.
	EffectEscalate EffectKind = "escalate"
)

// ReplyKind says which kind of reply an EffectReply carries.
type ReplyKind string

// The kinds of reply.
const (
	ReplyRefusal ReplyKind = "refusal" // what was wrong and what to type instead
	ReplyList    ReplyKind = "list"    // the open clarifications
	ReplyShow    ReplyKind = "show"    // one clarification's thread
	ReplyStale   ReplyKind = "stale"   // the stale clarifications
	ReplyStats   ReplyKind = "stats"   // counts for the issue
)

// Reply is the content of a reply comment, as data; render turns it into Markdown.
type Reply struct {
	Kind ReplyKind
	// To is the login being answered.
	To string
	// Quote is the command line the reply is about, as typed.
	Quote   string
	Problem string
	Try     string
	// Code names a refusal for machines, beside Problem for people.
	Code ErrorCode
	// ID is the clarification a ReplyShow shows.
	ID string
	// Ref is the ref of the ask a refusal turns away, and Nonce the nonce of a dispatched
	// one, so that its asker finds the refusal.
	Ref, Nonce string
}

// Effect is one thing to post or do; Key is unique per effect so that posting it is idempotent
// (the handlers hide it in the posted comment and never post a key twice).
type Effect struct {
	Kind            EffectKind
	Key             string
	ClarificationID string
	Round           int
	// CommentID is the comment the effect answers or reacts to.
	CommentID int64
	// Reaction is the GitHub reaction content ("+1", "eyes", …) of an EffectReact.
	Reaction string
	Reply    Reply
	// Reason is why an EffectEscalate escalates.
	Reason string
	// Mention lists whom an EffectPostRound or EffectPing @mentions: logins and "org/team",
	// without "@", de-duplicated and capped; never anyone only a user's text names.
	Mention []string
}
