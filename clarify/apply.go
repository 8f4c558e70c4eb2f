package clarify

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Result is what Apply returns: the new ledger, the effects to carry out, and, when the
// event moved nothing, why (for the log).
type Result struct {
	Ledger  Ledger
	Effects []Effect
	// Ignored says why the event changed nothing; empty when it was taken.
	Ignored string
}

// NewLedger returns the empty ledger of an issue.
func NewLedger(issue int) Ledger {
	return Ledger{Version: LedgerVersion, Issue: issue}
}

// Apply folds one event into the ledger. It is pure: the same ledger, event, policy and time
// always give the same result, and l is never modified.
func Apply(l Ledger, ev Event, p Policy, now time.Time) Result {
	a := applier{l: l.Clone(), ev: ev, p: p, now: now}
	switch ev.Kind {
	case EventComment:
		a.comment()
	case EventClosed:
		a.closed()
	case EventReopened:
		if a.l.Closed {
			a.l.Closed = false
		} else {
			a.ignore("issue was not closed")
		}
	default:
		a.ignore("unknown event " + string(ev.Kind))
	}
	return Result{Ledger: a.l, Effects: a.effects, Ignored: a.ignored}
}

// applier carries one Apply call's state, so each command reads as a short method.
type applier struct {
	l       Ledger
	ev      Event
	p       Policy
	now     time.Time
	cmd     Command
	effects []Effect
	ignored string
}

func (a *applier) ignore(why string) { a.ignored = why }

func (a *applier) comment() {
	if a.ev.CommentID != 0 && a.ev.CommentID <= a.l.Cursor {
		// GitHub's comment ids grow, so this comment has been folded in already: a
		// redelivery, or a catch-up that overlapped with a live delivery.
		a.ignore("comment already applied")
		return
	}
	if a.ev.CommentID > a.l.Cursor {
		a.l.Cursor = a.ev.CommentID
	}
	if a.ev.Actor.Self {
		a.ignore("the app's own comment")
		return
	}
	if !a.ev.Actor.Bot {
		a.objectToPrecedents()
	}
	cmd, err := Parse(a.ev.Body)
	if a.ev.Edited && (err != nil || cmd.Kind != CmdNone) {
		// However late it is first read: the command may not be what the thread showed when
		// it was posted, and a refusal of it would answer text nobody saw typed.
		a.ignore("edited after it was posted: commands are taken from new comments only")
		return
	}
	if a.outsider() {
		// On a public repository anyone can comment: were each stray command answered, a
		// drive-by could make the app write (each write paced) as often as they like.
		a.ignore(a.ev.Actor.Login + " has no write access and no part in this issue's clarifications: nothing is written")
		return
	}
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			pe = &ParseError{Problem: err.Error()}
		}
		a.refuse(cmp.Or(pe.Code, CodeBadCommand), pe.Line, pe.Problem, pe.Try)
		return
	}
	a.cmd = cmd
	a.run()
}

// run carries out the command of a comment.
func (a *applier) run() {
	switch a.cmd.Kind {
	case CmdNone:
		a.plainReply()
	case CmdAsk:
		a.ask()
	case CmdRespond:
		a.respond()
	case CmdFollowup:
		a.followup()
	case CmdResolve:
		a.resolve()
	case CmdEscalate:
		a.escalate()
	case CmdAbandon:
		a.abandon()
	case CmdList:
		a.reply(Reply{Kind: ReplyList, To: a.ev.Actor.Login})
	case CmdShow:
		if _, ok := a.named(); ok {
			a.reply(Reply{Kind: ReplyShow, To: a.ev.Actor.Login, ID: a.cmd.ID})
		}
	case CmdAssume:
		a.assume()
	case CmdStale:
		a.reply(Reply{Kind: ReplyStale, To: a.ev.Actor.Login})
	case CmdStats:
		a.reply(Reply{Kind: ReplyStats, To: a.ev.Actor.Login})
	case CmdSupersede, CmdUndo:
		a.precedentCommand()
	default:
		a.ignore("unhandled command " + string(a.cmd.Kind))
	}
}

// outsider reports whether the comment's author is a drive-by: no write access, no bot (an
// app can only comment where it is installed, and an agent needs its refusals), listed in no
// role, the asker of nothing in this issue and addressed by nothing open. Nothing such a
// commenter types can move the ledger, so they get no comment either.
func (a *applier) outsider() bool {
	actor := a.ev.Actor
	if actor.Bot || actor.CanWrite() || knownByLogin(a.l, a.p, actor.Login) {
		return false
	}
	for _, c := range a.l.Clarifications {
		if c.Status.Open() && a.p.addressedTo(c, actor) {
			return false
		}
	}
	return true
}

// closed abandons whatever is open. It does not trust l.Closed to say it was done
// already: a reopen of an issue with nothing open is never fetched, so the flag can lag.
func (a *applier) closed() {
	a.l.Closed = true
	if len(a.l.Open()) == 0 {
		a.ignore("nothing open to abandon")
		return
	}
	for i := range a.l.Clarifications {
		c := &a.l.Clarifications[i]
		if !c.Status.Open() {
			continue
		}
		settle(c, Abandoned, "", Entry{Kind: KindNote, Round: c.Round, Author: a.ev.Actor.Login, At: a.at(),
			Text: "abandoned: the issue was closed"}, a.now)
	}
}

func (a *applier) plainReply() {
	actor := a.ev.Actor
	if actor.Bot {
		a.ignore("plain replies from bots are not answers")
		return
	}
	if a.cmd.ID != "" {
		if c, ok := a.find(a.cmd.ID); ok && a.canAnswer(*c) {
			a.answer(c)
			return
		}
	}
	if c := a.oldestAwaiting(true); c != nil {
		a.answer(c)
		return
	}
	a.ignore("not an answer: nothing awaits a reply from " + actor.Login)
}

func (a *applier) respond() {
	if a.cmd.ID != "" {
		c, ok := a.named()
		switch {
		case !ok:
		case !c.Status.Awaiting():
			a.refuse(CodeNotAwaiting, a.cmd.Line, fmt.Sprintf("%s is %s, so it is not waiting for an answer.", c.ID, c.Status),
				"`/clarify` lists the clarifications that are waiting.")
		case agreedByMany(*c):
			a.refuse(CodeNotAwaiting, a.cmd.Line, fmt.Sprintf("%s was answered when %d of %s agreed; a later answer does not change it.", c.ID, NeedsOf(*c), c.Target.Name),
				"leave a plain comment for the asker, who settles it or follows it up.")
		case !a.canAnswer(*c):
			a.refuse(CodeNotPermitted, a.cmd.Line, a.whoAnswers(*c), "ask them to answer, or leave a plain comment for the asker.")
		default:
			a.answer(c)
		}
		return
	}
	c := a.oldestAwaiting(true)
	if c == nil && a.ev.Actor.CanWrite() {
		c = a.oldestAwaiting(false)
	}
	if c == nil {
		a.refuse(CodeNotAwaiting, a.cmd.Line, "no clarification in this issue is waiting for an answer from you.",
			"`/clarify` lists the open clarifications; `/respond CLR-… <answer>` answers one by id.")
		return
	}
	a.answer(c)
}

// answer takes the comment as c's answer, if it fits the answer c's round expects.
func (a *applier) answer(c *Clarification) {
	value, misfit := ReadAnswer(ExpectOf(*c), c.Options, a.cmd.Text)
	if misfit != "" {
		a.doesNotFit(*c, misfit)
		return
	}
	if NeedsOf(*c) > 1 {
		a.answerOfMany(c, value)
		return
	}
	c.Status = Answered
	c.UpdatedAt = a.now
	c.StaleAfter = a.now.Add(a.p.SLA)
	e := a.entry(KindAnswer, c.Round, a.cmd.Text)
	e.Value = value
	c.Thread = append(c.Thread, e)
	a.react("+1")
}

func (a *applier) followup() {
	c, ok := a.named()
	if !ok {
		return
	}
	line := a.cmd.Line
	switch {
	case !strings.EqualFold(c.Asker.Login, a.ev.Actor.Login):
		a.refuse(CodeNotPermitted, line, fmt.Sprintf("only %s, who asked %s, can follow it up.", c.Asker.Login, c.ID),
			"`/clarify @target <question>` asks a new clarification.")
		return
	case !c.Status.Open():
		a.refuse(CodeSettled, line, fmt.Sprintf("%s is %s.", c.ID, c.Status),
			"`/clarify @target <question>` asks a new clarification.")
		return
	case c.Status != Answered:
		a.refuse(CodeStillAwaiting, line, fmt.Sprintf("%s is still waiting for an answer to round %d.", c.ID, c.Round),
			fmt.Sprintf("wait for the answer, or `/clarify resolve %s <decision>` to settle it yourself.", c.ID))
		return
	}
	if RepeatsEarlier(*c, a.cmd.Text) {
		a.stuck(c, fmt.Sprintf("stuck: round %d repeats an earlier question", c.Round+1))
		return
	}
	if c.Round+1 > c.MaxRounds {
		reason := fmt.Sprintf("round %d would pass the limit of %d rounds", c.Round+1, c.MaxRounds)
		a.refuse(CodeRoundLimit, a.cmd.Line, fmt.Sprintf("%s has had %d rounds, the most allowed, so it is escalated to the maintainers.", c.ID, c.MaxRounds),
			fmt.Sprintf("a maintainer settles it with `/clarify resolve %s <decision>`.", c.ID))
		a.escalateNow(c, reason)
		return
	}
	c.Round++
	c.Status = Pending
	c.UpdatedAt = a.now
	c.StaleAfter = a.now.Add(a.p.SLA)
	// Options, fallback and the answer expected belong to the question of the round that
	// gives them.
	c.Options, c.Fallback, c.Expect = a.cmd.Options, a.cmd.Fallback, a.cmd.Expect
	c.Evidence = append(c.Evidence, a.cmd.Evidence...)
	c.Thread = append(c.Thread, a.entry(KindQuestion, c.Round, a.cmd.Text))
	a.postRound(*c)
}

func (a *applier) resolve() {
	c, ok := a.toResolve()
	if !ok {
		return
	}
	if !a.canSettle(*c) {
		a.refuse(CodeNotPermitted, a.cmd.Line, fmt.Sprintf("only %s, who asked %s, or someone with write access can resolve it.", c.Asker.Login, c.ID),
			"ask the asker or a maintainer to resolve it.")
		return
	}
	decision := a.cmd.Text
	if decision == "" {
		decision = LastAnswer(*c)
	}
	e := a.entry(KindResolution, c.Round, decision)
	e.Value = resolutionValue(*c, a.ev.Actor.Login, decision)
	// No reaction: the status table and the labels show a settled clarification, and a
	// reaction would be a write of its own in every lifecycle.
	settle(c, Resolved, decision, e, a.now)
}

// toResolve finds the clarification a resolve means: the one it names, or else the only
// open one the actor may settle. Guessing between several would settle the wrong one.
func (a *applier) toResolve() (*Clarification, bool) {
	if a.cmd.ID != "" {
		return a.openNamed()
	}
	var candidates []*Clarification
	for i := range a.l.Clarifications {
		x := &a.l.Clarifications[i]
		if x.Status.Open() && a.canSettle(*x) {
			candidates = append(candidates, x)
		}
	}
	if len(candidates) != 1 {
		problem := "there is no open clarification here that you can resolve."
		if len(candidates) > 1 {
			problem = fmt.Sprintf("%d open clarifications could be meant: %s.", len(candidates), idList(candidates))
		}
		a.refuse(CodeAmbiguous, a.cmd.Line, problem, "`/clarify resolve CLR-… <decision>` names the one to resolve.")
		return nil, false
	}
	return candidates[0], true
}

func (a *applier) escalate() {
	c, ok := a.openNamed()
	if !ok {
		return
	}
	if !a.canSettle(*c) && !a.p.addressedTo(*c, a.ev.Actor) {
		a.refuse(CodeNotPermitted, a.cmd.Line, fmt.Sprintf("only the two sides of %s and people with write access can escalate it.", c.ID),
			"ask a maintainer to look at it.")
		return
	}
	reason := a.cmd.Text
	if reason == "" {
		reason = "escalated by " + a.ev.Actor.Login
	}
	nth, capped := escalationCall(*c, a.ev.Actor.Login, reason)
	switch {
	case nth > 0:
		// The escalation's comment is its acknowledgement.
		a.escalateNow(c, reason)
	case capped:
		if c.Status != Escalated {
			a.escalateNow(c, reason)
		}
		a.reply(Reply{Kind: ReplyRefusal, Code: CodeCalledTwice, To: a.ev.Actor.Login, Quote: a.cmd.Line, Ref: a.cmd.Ref,
			Problem: fmt.Sprintf("the maintainers were called twice in round %d of %s already, so this escalation is kept in the thread but mentions nobody.", c.Round, c.ID),
			Try:     fmt.Sprintf("a maintainer settles it with `/clarify resolve %s <decision>`; a follow-up round can call them again.", c.ID)})
	default:
		// No news for the maintainers (this side gave this reason in the round already):
		// the status table shows it escalated again.
		if c.Status != Escalated {
			a.escalateNow(c, reason)
		}
		a.react("+1")
	}
}

// escalateNow marks c escalated by the event's author and announces it, the first time in
// its round; it reports whether it did.
func (a *applier) escalateNow(c *Clarification, reason string) bool {
	e, announce := escalateClarification(c, reason, a.ev.Actor.Login, a.ev.CommentID, a.at())
	if announce {
		a.effects = append(a.effects, e)
	}
	return announce
}

func (a *applier) abandon() {
	c, ok := a.openNamed()
	if !ok {
		return
	}
	if !strings.EqualFold(c.Asker.Login, a.ev.Actor.Login) {
		a.refuse(CodeNotPermitted, a.cmd.Line, fmt.Sprintf("only %s, who asked %s, can abandon it.", c.Asker.Login, c.ID),
			fmt.Sprintf("`/clarify resolve %s <decision>` settles it instead.", c.ID))
		return
	}
	settle(c, Abandoned, "", a.entry(KindNote, c.Round, "abandoned by the asker"), a.now)
}

func (a *applier) assume() {
	if !a.ev.Actor.CanWrite() && !a.ev.Actor.Bot {
		a.refuse(CodeNotPermitted, a.cmd.Line, "only collaborators with write access and agents (bot accounts) can record assumptions here.",
			"ask a maintainer to record it.")
		return
	}
	a.l.Assumptions = append(a.l.Assumptions, Assumption{
		Decision: capText(a.cmd.Text), Confidence: a.cmd.Confidence, Risk: a.cmd.Risk,
		Author: a.ev.Actor.Login, CommentID: a.ev.CommentID, At: a.at(), Source: "assume",
	})
	a.react("+1")
}

// canAnswer: the target's people or anyone with write access, never the asker themself.
func (a *applier) canAnswer(c Clarification) bool {
	if !c.Status.Awaiting() || strings.EqualFold(c.Asker.Login, a.ev.Actor.Login) || agreedByMany(c) {
		return false
	}
	if a.p.onlyTargetsAnswer(c) {
		return a.p.addressedTo(c, a.ev.Actor)
	}
	return a.p.addressedTo(c, a.ev.Actor) || a.ev.Actor.CanWrite()
}

// whoAnswers tells the one whose answer canAnswer refused who may answer c instead.
func (a *applier) whoAnswers(c Clarification) string {
	switch {
	case strings.EqualFold(c.Asker.Login, a.ev.Actor.Login):
		return fmt.Sprintf("%s is your own question; its answer comes from %s.", c.ID, c.Target.Name)
	case NeedsOf(c) > 1:
		return fmt.Sprintf("%s needs the answers of %d of %s; only they can answer it.", c.ID, NeedsOf(c), c.Target.Name)
	case a.p.AnswerFrom == AnswerTargets:
		return fmt.Sprintf("%s is addressed to %s; only they can answer it (answer_from: targets).", c.ID, c.Target.Name)
	default:
		return fmt.Sprintf("%s is addressed to %s; only they or someone with write access can answer it.", c.ID, c.Target.Name)
	}
}

// stuck escalates c instead of taking the command, and tells the one who typed it why.
func (a *applier) stuck(c *Clarification, reason string) {
	if c.Status != Escalated {
		a.escalateNow(c, reason)
	}
	a.refuse(CodeRepeated, a.cmd.Line, fmt.Sprintf("this repeats %s, so it is escalated to the maintainers instead of asked again.", c.ID),
		fmt.Sprintf("wait for a maintainer's `/clarify resolve %s <decision>`, or ask something new.", c.ID))
}

// openDuplicate finds an open clarification from the same asker to the same target whose
// question is the one being asked again.
func (a *applier) openDuplicate(asker string, target Target) (*Clarification, bool) {
	for i := range a.l.Clarifications {
		c := &a.l.Clarifications[i]
		if c.Status.Open() && strings.EqualFold(c.Asker.Login, asker) && strings.EqualFold(c.Target.Name, target.Name) && RepeatsEarlier(*c, a.cmd.Text) {
			return c, true
		}
	}
	return nil, false
}

func (a *applier) mustFind(id string) *Clarification {
	c, _ := a.find(id)
	return c
}

// canSettle: the asker, or anyone with write access (resolve, escalate).
func (a *applier) canSettle(c Clarification) bool {
	return strings.EqualFold(c.Asker.Login, a.ev.Actor.Login) || a.ev.Actor.CanWrite()
}

// oldestAwaiting finds the oldest clarification waiting for an answer that the actor may
// give; with addressed, only those addressed to the actor.
func (a *applier) oldestAwaiting(addressed bool) *Clarification {
	for i := range a.l.Clarifications {
		c := &a.l.Clarifications[i]
		if !a.canAnswer(*c) {
			continue
		}
		if addressed && !a.p.addressedTo(*c, a.ev.Actor) {
			continue
		}
		return c
	}
	return nil
}

// named finds the clarification the command names, refusing an id this issue does not have.
func (a *applier) named() (*Clarification, bool) {
	c, ok := a.find(a.cmd.ID)
	if !ok {
		a.refuseUnknown(a.cmd.ID)
	}
	return c, ok
}

// openNamed finds the clarification named by a command that acts only on an open one,
// refusing one that is resolved or abandoned already.
func (a *applier) openNamed() (*Clarification, bool) {
	c, ok := a.named()
	if ok && !c.Status.Open() {
		a.refuse(CodeSettled, a.cmd.Line, fmt.Sprintf("%s is already %s.", c.ID, c.Status), "`/clarify` lists the open clarifications.")
		return nil, false
	}
	return c, ok
}

func (a *applier) find(id string) (*Clarification, bool) {
	for i := range a.l.Clarifications {
		if a.l.Clarifications[i].ID == id {
			return &a.l.Clarifications[i], true
		}
	}
	return nil, false
}

// MaxEntryText caps the text a thread entry keeps, in runes; the whole text stays in the
// comment the entry names, so a very long question cannot crowd the ledger out of its
// comment.
const MaxEntryText = 4000

func (a *applier) entry(kind EntryKind, round int, text string) Entry {
	return Entry{Kind: kind, Round: round, Author: a.ev.Actor.Login, CommentID: a.ev.CommentID, At: a.at(), Text: capText(text),
		Edited: a.ev.Edited}
}

func capText(text string) string {
	if r := []rune(text); len(r) > MaxEntryText {
		return string(r[:MaxEntryText]) + " … (cut; the whole text is in the comment)"
	}
	return text
}

// at is when the event happened, falling back to now for events without a time.
func (a *applier) at() time.Time {
	if a.ev.At.IsZero() {
		return a.now
	}
	return a.ev.At
}

// postRound mirrors the current round of c. It @mentions the people the round waits on
// whom GitHub did not already notify through the comment that asked it (for a dispatch's
// mirror, those the mirror @mentioned): @mentions there reach them without us, and a second
// one is noise. The asker is never mentioned on their own question (a role may list them
// too).
func (a *applier) postRound(c Clarification) {
	skip := mentionedIn(a.ev.Body)
	if a.ev.Mirrored {
		skip = map[string]bool{}
		for _, h := range MirrorMentions(a.ev.Body, a.ev.Actor.Login) {
			skip[h] = true
		}
	}
	skip[strings.ToLower(c.Asker.Login)] = true
	a.effects = append(a.effects, Effect{Kind: EffectPostRound, Key: fmt.Sprintf("round:%s:%d", c.ID, c.Round),
		ClarificationID: c.ID, Round: c.Round, CommentID: a.ev.CommentID, Mention: mentionList(a.p.people(c.Target), skip)})
}

func (a *applier) react(content string) {
	a.effects = append(a.effects, Effect{Kind: EffectReact, Key: fmt.Sprintf("react:%d:%s", a.ev.CommentID, content),
		CommentID: a.ev.CommentID, Reaction: content})
}

func (a *applier) reply(r Reply) {
	a.effects = append(a.effects, Effect{Kind: EffectReply, Key: ReplyKey(a.ev.CommentID), CommentID: a.ev.CommentID, Reply: r})
}

// ReplyKey is the effect key of the app's reply to a comment: one reply per comment.
func ReplyKey(commentID int64) string { return fmt.Sprintf("reply:%d", commentID) }

func (a *applier) refuse(code ErrorCode, line, problem, try string) {
	a.ignore("refused: " + problem)
	a.reply(Reply{Kind: ReplyRefusal, Code: code, To: a.ev.Actor.Login, Quote: line, Problem: problem, Try: try, Ref: a.cmd.Ref, Nonce: a.ev.Nonce})
}

func (a *applier) refuseUnknown(id string) {
	a.refuse(CodeUnknownID, a.cmd.Line, fmt.Sprintf("there is no %s in this issue.", id),
		"`/clarify` lists the clarifications of this issue.")
}

// topicOf derives a topic from a question that did not give one: its first line, shortened.
func topicOf(question string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(question), "\n")
	first = strings.TrimSpace(first)
	const max = 60
	if r := []rune(first); len(r) > max {
		return strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return first
}

func idList(cs []*Clarification) string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}
