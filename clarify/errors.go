package clarify

// ErrorCode is the stable name of a refusal, which an agent can act on without reading the
// English beside it. Codes are part of the documented interface: a code is never renamed,
// and a new one is added rather than an old one widened.
type ErrorCode string

// The codes a refusal carries; docs/agents.md lists them with what to do.
const (
	// CodeBadCommand: the command does not parse, or names no subcommand, role or person.
	CodeBadCommand ErrorCode = "unknown-command"
	// CodeIssueClosed: a closed issue takes no new clarifications.
	CodeIssueClosed ErrorCode = "issue-closed"
	// CodeNotPermitted: the author may not do this here (ask, answer, resolve, …).
	CodeNotPermitted ErrorCode = "not-permitted"
	// CodeQuota: the issue holds as many clarifications as the repository allows.
	CodeQuota ErrorCode = "quota"
	// CodeSelfAddressed: a clarification addressed to its own asker.
	CodeSelfAddressed ErrorCode = "self-addressed"
	// CodeMissingFields: the repository requires fields the ask did not give.
	CodeMissingFields ErrorCode = "missing-fields"
	// CodeOutOfScope: the repository's routes do not let the asker ask that target.
	CodeOutOfScope ErrorCode = "out-of-scope"
	// CodeNotAwaiting: nothing (or not the named clarification) is waiting for an answer.
	CodeNotAwaiting ErrorCode = "not-awaiting"
	// CodeStillAwaiting: a follow-up before the round was answered.
	CodeStillAwaiting ErrorCode = "still-awaiting"
	// CodeRoundLimit: the clarification has had the most rounds allowed.
	CodeRoundLimit ErrorCode = "round-limit"
	// CodeAmbiguous: the command must name the clarification it means.
	CodeAmbiguous ErrorCode = "ambiguous"
	// CodeRepeated: the ask repeats an earlier one, which is escalated instead.
	CodeRepeated ErrorCode = "repeated"
	// CodeSettled: the clarification is already resolved, abandoned or timed out.
	CodeSettled ErrorCode = "already-settled"
	// CodeUnknownID: no clarification of that id in this issue.
	CodeUnknownID ErrorCode = "unknown-clarification"
	// CodeNoRoom: the issue's ledger has no room for more open text.
	CodeNoRoom ErrorCode = "no-room"
	// CodeTooLong: an ask's ref or state is longer than its limit.
	CodeTooLong ErrorCode = "too-long"
	// CodeCalledTwice: an escalation after the round called the maintainers twice already.
	CodeCalledTwice ErrorCode = "called-twice"
	// CodeBadExpect: an ask's `Expect:` names no kind of answer Clarify knows.
	CodeBadExpect ErrorCode = "bad-expect"
	// CodeExpectNoOptions: `Expect: option` on a question without options.
	CodeExpectNoOptions ErrorCode = "expect-without-options"
	// CodeBadNeeds: an ask's `Needs:` is no number of people from 1 to MaxNeeds.
	CodeBadNeeds ErrorCode = "bad-needs"
	// CodeNeedsTooMany: an ask needs more people's answers than its target names.
	CodeNeedsTooMany ErrorCode = "needs-too-many"
	// CodeDoesNotFit: a reply that does not fit the answer its question expects.
	CodeDoesNotFit ErrorCode = "does-not-fit"
	// CodeCannotVerify: the asker's client sees blocks that claim to be Clarify's but
	// cannot verify them (the account or the keys it believes are not Clarify's here). The
	// client's own code: Clarify never refuses with it.
	CodeCannotVerify ErrorCode = "cannot-verify"
)

// ErrorCodes lists every code; docs/agents.md's table of error codes names each one, and
// no other (internal/doccheck checks it).
var ErrorCodes = []ErrorCode{CodeBadCommand, CodeIssueClosed, CodeNotPermitted, CodeQuota, CodeSelfAddressed,
	CodeMissingFields, CodeOutOfScope, CodeNotAwaiting, CodeStillAwaiting, CodeRoundLimit, CodeAmbiguous,
	CodeRepeated, CodeSettled, CodeUnknownID, CodeNoRoom, CodeTooLong, CodeCalledTwice, CodeBadExpect, CodeExpectNoOptions, CodeDoesNotFit,
	CodeBadNeeds, CodeNeedsTooMany, CodeCannotVerify}
