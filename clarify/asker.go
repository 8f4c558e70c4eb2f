package clarify

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The asker's own data. An ask may carry a ref (the asker's correlation id, which a retried
// step sends again) and a state (an opaque string it wants back when it is woken). Both are
// kept with the clarification, in the ledger, and returned byte for byte; the ledger is
// readable by anyone who can read the issue, and so are they.
//
// A dispatched ask also carries a nonce, which tells askers apart where the account does
// not: every workflow of a repository sends its dispatches as github-actions[bot]. The
// asker's client draws it from its token and the ask's issue and ref, so that it is the
// same for a retried step and another for every other token (docs/agents.md). It is kept
// with the clarification, and a refusal of the ask names it; an ask repeats an open
// clarification only of the same asker, ref and nonce.

// Limits of an ask's ref and state; past them the ask is refused with CodeTooLong.
const (
	// MaxRefRunes is the most characters a ref may have.
	MaxRefRunes = 200
	// MaxStateBytes is the most bytes a state may have (8 KiB).
	MaxStateBytes = 8 << 10
)

// RefProblem says what is wrong with a ref (already trimmed) and the code of its refusal; ""
// when nothing is. A ref is one line of text: it is written as a `Ref:` line of the ask.
func RefProblem(ref string) (string, ErrorCode) {
	if n := utf8.RuneCountInString(ref); n > MaxRefRunes {
		return fmt.Sprintf("the ref is %d characters long; it may have at most %d.", n, MaxRefRunes), CodeTooLong
	}
	if strings.IndexFunc(ref, unicode.IsControl) >= 0 || !utf8.ValidString(ref) {
		return "the ref must be one line of text, without line breaks or control characters.", CodeBadCommand
	}
	return "", ""
}

// MaxNonceBytes is the most bytes a dispatched ask's nonce may have.
const MaxNonceBytes = 64

// NonceProblem says what is wrong with a nonce, "" when nothing is: up to MaxNonceBytes of
// letters, digits, '-' and '_', which any record and marker can carry as they are.
func NonceProblem(nonce string) string {
	if len(nonce) > MaxNonceBytes {
		return fmt.Sprintf("the nonce is %d bytes long; it may have at most %d.", len(nonce), MaxNonceBytes)
	}
	if strings.TrimFunc(nonce, func(r rune) bool {
		return r == '-' || r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
	}) != "" {
		return "it may hold only letters, digits, '-' and '_'."
	}
	return ""
}

// StateTry is what a refusal of a state past MaxStateBytes tells the asker to do instead.
const StateTry = "keep the state under 8 KiB: a session id, or the name of a file or artifact that holds the rest."

// StateProblem says what is wrong with a state, "" when nothing is.
func StateProblem(state string) string {
	if len(state) > MaxStateBytes {
		return fmt.Sprintf("the state is %d bytes long; it may have at most %d (8 KiB).", len(state), MaxStateBytes)
	}
	return ""
}

// The outcomes of a clarification as its asker reads them (Outcome).
const (
	OutcomeAnswered       = "answered"
	OutcomeResolved       = "resolved"
	OutcomeTimeoutAssumed = SourceTimeoutAssumed
	OutcomeAbandoned      = "abandoned"
)

// Outcome is what a clarification came to, for its asker: answered (its latest question has
// an answer: the asker may go on, or follow up; it stays so while stale or escalated for
// want of the asker's next step), resolved (settled by a person, or by the repository's
// earlier decision), timeout_assumed (settled by its fallback after the timeout, with no
// person), or abandoned; "" while its latest question waits for an answer.
func Outcome(c Clarification) string {
	switch c.Status {
	case Abandoned:
		return OutcomeAbandoned
	case Resolved:
		if e, ok := resolutionEntry(c); ok && e.Author == "" && strings.HasPrefix(e.Text, timeoutPrefix) {
			return OutcomeTimeoutAssumed
		}
		return OutcomeResolved
	}
	if NeedsOf(c) > 1 && !RoundAnswered(c) {
		return "" // answers in a round that needs several say nothing until enough agree
	}
	for i := len(c.Thread) - 1; i >= 0; i-- {
		switch c.Thread[i].Kind {
		case KindAnswer:
			return OutcomeAnswered
		case KindQuestion:
			return ""
		}
	}
	return ""
}

// SameAsk finds the open clarification that an ask of asker's with ref and nonce repeats: a
// retried step asks again with the same ref, and is answered with the clarification it
// opened the first time rather than a second one. An empty ref repeats nothing, and another
// asker's ref is never the asker's.
func SameAsk(l Ledger, asker, ref, nonce string) (Clarification, bool) {
	if ref == "" {
		return Clarification{}, false
	}
	for _, c := range l.Clarifications {
		if c.Status.Open() && c.Ref == ref && strings.EqualFold(c.Asker.Login, asker) && c.Nonce == nonce {
			return c, true
		}
	}
	return Clarification{}, false
}

// AskRecordVersion is the version of AskRecord's JSON; a field is never renamed or retyped
// within a version.
const AskRecordVersion = 1

// AskRecord is one clarification as its asker reads it: what `bot wait --json` and `bot
// status --json` print and the MCP tools return. It is read from the ledger.
type AskRecord struct {
	V     int `json:"v"`
	Issue int `json:"issue"`
	// ID, Round, Asker, Target and CreatedAt are absent only from a record of an ask
	// Clarify has not taken yet (StatusPosted), which holds the id or the ref asked about.
	ID string `json:"id,omitempty"`
	// Status is where it stands: pending, answered, stale, escalated, resolved or abandoned;
	// StatusPosted while Clarify has not taken its ask.
	Status string `json:"status"`
	// Outcome tells the ways it ended apart (Outcome); absent while it waits.
	Outcome  string `json:"outcome,omitempty"`
	Round    int    `json:"round,omitzero"`
	Asker    string `json:"asker,omitempty"`
	Target   string `json:"target,omitempty"`
	Topic    string `json:"topic,omitempty"`
	Question string `json:"question,omitempty"`
	// Answer is the last answer given, if any.
	Answer string `json:"answer,omitempty"`
	// Decision is a settled clarification's decision.
	Decision string `json:"decision,omitempty"`
	// Options are the latest question's options; Choice the one the decision, else the
	// answer, names (ChosenOption).
	Options []Option `json:"options,omitempty"`
	Choice  *Option  `json:"choice,omitempty"`
	Ref     string   `json:"ref,omitempty"`
	State   string   `json:"state,omitempty"`
	// URL is the issue's web page; Next what the asker does next (NextStep), absent once
	// it is settled.
	URL        string    `json:"url,omitempty"`
	Next       string    `json:"next,omitempty"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	UpdatedAt  time.Time `json:"updated_at,omitzero"`
	ResolvedAt time.Time `json:"resolved_at,omitzero"`
	// Value is the typed value when the question expected one (LastValue): the last
	// answer's, or once resolved the decision's: true, 42, "2026-12-01" or
	// {"key":"b","text":"…"}; Answer and Decision keep the words.
	Value Value `json:"value,omitempty"`
	// Needs is how many people's answers each round needs, when more than one (needs.go);
	// Answers then lists the current round's, one a person, and Answer and Value stay
	// empty while the round is open and they do not agree.
	Needs   int            `json:"needs,omitempty"`
	Answers []RecordAnswer `json:"answers,omitempty"`
}

// RecordAnswer is one person's answer in a round that needs several.
type RecordAnswer struct {
	Author string `json:"author"`
	Text   string `json:"text"`
	Value  Value  `json:"value,omitempty"`
}

// StatusPosted is the status of an ask's record when the ask was sent but Clarify has
// not taken it yet: the record holds the ask's ref to find it by later, or the id a wait
// or a read asked about, which an ask not taken yet may become.
const StatusPosted = "posted"

// StatusReading is the status of a record whose wait ran out of its time while the client
// was still finding Clarify's status comment in a long issue: nothing of it is known yet
// (the id or the ref asked about alone), and the next wait goes on from where it stopped.
const StatusReading = "reading"

// The next steps a record names (NextStep).
const (
	NextWait   = "wait"
	NextAct    = "act on the answer, then resolve (or follow up)"
	NextPosted = "find it by its ref, or ask again with the same ref"
)

// AskRecordOf is the asker's record of c, a clarification of the given issue.
func AskRecordOf(issue int, c Clarification) AskRecord {
	r := AskRecord{V: AskRecordVersion, Issue: issue, ID: c.ID, Status: string(c.Status), Outcome: Outcome(c),
		Round: c.Round, Asker: c.Asker.Login, Target: c.Target.Name, Topic: c.Topic, Question: FirstQuestion(c),
		Answer: LastAnswer(c), Decision: c.Resolution, Options: c.Options, Ref: c.Ref, State: c.State,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, ResolvedAt: c.ResolvedAt, Value: LastValue(c)}
	if NeedsOf(c) > 1 && c.Status.Open() && !RoundAnswered(c) {
		// No one person's words are the answer of a round that needs several, until they agree.
		r.Answer, r.Value = "", ""
	}
	said := r.Answer
	if !c.Status.Open() {
		said = r.Decision
	}
	if o, ok := ChosenOption(c.Options, said); ok {
		r.Choice = &o
	}
	if NeedsOf(c) > 1 {
		r.Needs = c.Needs
		for _, e := range RoundAnswers(c) {
			r.Answers = append(r.Answers, RecordAnswer{Author: e.Author, Text: e.Text, Value: e.Value})
		}
	}
	r.Next = NextStep(r.Status, r.Outcome)
	return r
}

// LastValue is c's typed value as it stands: once resolved, the decision's (its resolution
// entry's: resolutionValue, fallbackValue, or the precedent's); else the newest answer's;
// "" when there is none.
func LastValue(c Clarification) Value {
	if c.Status == Resolved {
		e, _ := resolutionEntry(c)
		return e.Value
	}
	e, _ := lastAnswerEntry(c)
	return e.Value
}

// NextStep is what an asker does next with a clarification of that status and outcome:
// wait while its question waits (pending, stale or escalated with no answer); act on an
// answer, then settle it (it stays stale or escalated for want of that step); nothing once
// settled. A posted ask is found by its ref.
func NextStep(status, outcome string) string {
	switch {
	case status == StatusPosted:
		return NextPosted
	case status == string(Resolved) || status == string(Abandoned):
		return ""
	case outcome == OutcomeAnswered:
		return NextAct
	}
	return NextWait
}

// ChosenOption is the option that text (an answer or a decision) names, read as a reply
// to `Expect: option` is (readOption): its letter ("b", "(b)", "b)", "option b", "b) per
// client IP"), or the option's own text (case, spacing and punctuation aside), alone or as
// the only option a longer text names.
func ChosenOption(opts []Option, text string) (Option, bool) {
	v, misfit := readOption(opts, withoutIDs(text))
	var o Option
	if misfit != "" || json.Unmarshal([]byte(v), &o) != nil {
		return Option{}, false
	}
	return o, true
}

// LastAnswer is the newest answer in c's thread, "" when none was given.
func LastAnswer(c Clarification) string {
	e, _ := lastAnswerEntry(c)
	return e.Text
}
