package clarify

// CommandKind names what a comment asks the app to do.
type CommandKind string

// The commands of docs/agents.md, "Commands in an issue". CmdNone is a plain reply (no command line).
const (
	CmdNone     CommandKind = ""
	CmdAsk      CommandKind = "ask"      // /clarify @target [--non-blocking] <question>
	CmdRespond  CommandKind = "respond"  // /respond <answer>
	CmdFollowup CommandKind = "followup" // /clarify followup CLR-… <question>
	CmdResolve  CommandKind = "resolve"  // /clarify resolve [CLR-…] [decision]
	CmdEscalate CommandKind = "escalate" // /clarify escalate CLR-… [why]
	CmdAbandon  CommandKind = "abandon"  // /clarify abandon CLR-…
	CmdList     CommandKind = "list"     // /clarify
	CmdShow     CommandKind = "show"     // /clarify show CLR-…
	CmdStale    CommandKind = "stale"    // /clarify stale
	CmdStats    CommandKind = "stats"    // /clarify stats
	CmdAssume   CommandKind = "assume"   // /assume <decision>
	// CmdSupersede replaces a decision of the repository: /clarify supersede CLR-… <new decision>.
	CmdSupersede CommandKind = "supersede"
	// CmdUndo reopens a clarification resolved from precedent: /clarify undo CLR-….
	CmdUndo CommandKind = "undo"
)

// Command is what one comment says, parsed; the zero value is a plain reply.
type Command struct {
	Kind CommandKind
	// Line is the command line as typed, for quoting back in a reply.
	Line string
	// ID is the CLR-… id the command names; for a plain reply, the first id mentioned.
	ID string
	// Target is the ask's target as typed, without the leading @ ("architect", "alice", "org/team").
	Target string
	// BareTarget says Target was typed without @, which only a configured role may be: the
	// parser knows no policy, so Apply resolves it (or refuses it).
	BareTarget  bool
	NonBlocking bool
	// Text is the question, answer, decision or reason; for a plain reply, the reply's own
	// words (quotes and HTML comments removed).
	Text       string
	Topic      string
	Type       string
	Options    []Option
	Fallback   string
	Evidence   []string
	Confidence string
	Risk       string
	// Ref is an ask's `Ref:` line: the asker's correlation id.
	Ref string
	// Expect is an ask's or follow-up's `Expect:` line, as Expect.String writes it.
	Expect string
	// Needs is an ask's `Needs:` line: how many people's answers it needs (0: one).
	Needs int
}

// ParseError is a command that could not be understood: what was wrong and what to type instead.
type ParseError struct {
	// Line is the offending command line as typed.
	Line    string
	Problem string
	Try     string
	// Code is the refusal's error code; empty means CodeBadCommand.
	Code ErrorCode
}

// Error returns the problem, so a ParseError reads as what was wrong.
func (e *ParseError) Error() string { return e.Problem }
