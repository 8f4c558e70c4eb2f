package clarify

import (
	"fmt"
	"strings"
)

// The ask: who may ask whom, what a repeated or misaddressed ask gets, and the opening of a
// clarification with its first round.

func (a *applier) ask() {
	if c, ok := SameAsk(a.l, a.ev.Actor.Login, a.cmd.Ref, a.ev.Nonce); ok {
		// A retried step: the clarification it opened the first time is its answer.
		a.react("+1")
		a.ignore(fmt.Sprintf("the same ask as %s (ref %q): not asked again", c.ID, c.Ref))
		return
	}
	if problem := StateProblem(a.ev.State); problem != "" {
		a.refuse(CodeTooLong, a.cmd.Line, problem, StateTry)
		return
	}
	target := a.p.ResolveTarget(a.cmd.Target)
	if a.cmd.BareTarget && target.Kind != TargetRole {
		a.refuseBareTarget()
		return
	}
	if a.askerRefused() || a.targetRefused(target) || a.needsRefused(target) || a.askRepeats(target) {
		return
	}
	a.open(target)
}

// refuseBareTarget refuses "/clarify <word> …" where the word is no configured role: a
// mistyped subcommand, a question without its target, or a person written without @ (which
// the app never takes as a login, so that a role's name never reaches a stranger's account).
func (a *applier) refuseBareTarget() {
	word := codeSpan(shorten(a.cmd.Target))
	roles := a.p.roleNames()
	subs := "the subcommands are `" + strings.Join(subcommands, "`, `") + "`, as in `/clarify show " + exampleID + "`"
	// A word in lower case may well be a person written without @; a capitalised one is more
	// likely the first word of a question, which would read oddly after an @.
	person := "alice"
	if asciiLower(a.cmd.Target) == a.cmd.Target {
		person = a.cmd.Target
	}
	next, _ := cutToken(a.cmd.Text)
	if near := nearestSubcommand(a.cmd.Target); near != "" || idLike(next) {
		problem := word + " is not a `/clarify` subcommand."
		if near != "" {
			problem += " Did you mean `" + near + "`?"
		}
		a.refuse(CodeBadCommand, a.cmd.Line, problem, subs+"; to ask, "+howToAddress(roles, "alice")+".")
		return
	}
	problem := word + " is not a role here: this repository configures none, so an ask names its target as `@login` or `@org/team` right after `/clarify`."
	if len(roles) > 0 {
		problem = fmt.Sprintf("%s is not one of this repository's roles (`%s`), so it cannot be the target; an ask names its target right after `/clarify`.",
			word, strings.Join(roles, "`, `"))
	}
	a.refuse(CodeBadCommand, a.cmd.Line, problem, howToAddress(roles, person)+"; "+subs+".")
}

// howToAddress shows how an ask names its target, with the first configured role (if any)
// and person as the examples.
func howToAddress(roles []string, person string) string {
	s := "`/clarify @" + person + " <question>` for a person or `/clarify @org/team <question>` for a team"
	if len(roles) > 0 {
		s = "`/clarify " + roles[0] + " <question>` for a role, " + s
	}
	return s
}

// askerRefused refuses an ask that its asker may not make here at all, and reports whether
// it did.
func (a *applier) askerRefused() bool {
	actor := a.ev.Actor
	switch {
	case a.ev.IssueClosed:
		a.refuse(CodeIssueClosed, a.cmd.Line, "this issue is closed, so it takes no new clarifications.",
			"reopen the issue first, or ask in an open one.")
	case !actor.CanWrite() && !actor.Bot:
		a.refuse(CodeNotPermitted, a.cmd.Line, "only collaborators with write access and agents (bot accounts) can ask here.",
			"ask a maintainer to raise the question for you.")
	case a.p.MaxPerIssue > 0 && len(a.l.Clarifications) >= a.p.MaxPerIssue:
		a.refuse(CodeQuota, a.cmd.Line, fmt.Sprintf("this issue already has %d clarification(s), the most this repository allows.", len(a.l.Clarifications)),
			"proceed on a documented assumption: `/assume <decision>` with `Confidence:` and `Risk:` lines.")
	default:
		return false
	}
	return true
}

// targetRefused refuses an ask that may not go to target, or leaves out a field the
// repository requires, and reports whether it did.
func (a *applier) targetRefused(target Target) bool {
	actor := a.ev.Actor
	if target.Kind == TargetLogin && strings.EqualFold(target.Name, actor.Login) {
		a.refuse(CodeSelfAddressed, a.cmd.Line, "a clarification cannot be addressed to the one who asks it.",
			"name the role or person who should answer: "+howToAddress(a.p.roleNames(), "alice")+".")
		return true
	}
	if ok, allowed := a.p.routeAllows(actor.Login, target); !ok {
		a.refuseRoute(allowed)
		return true
	}
	if missing := a.p.missingFields(a.cmd); len(missing) > 0 {
		a.refuse(CodeMissingFields, a.cmd.Line, fmt.Sprintf("this repository requires every ask to give %s.", strings.Join(missing, ", ")),
			"the long form, e.g. `/clarify architect <question>` followed by the lines `Type: missing-external-data`, `Options:`, `a) …`, `b) …`, `Fallback: a`.")
		return true
	}
	return false
}

// refuseRoute refuses an ask the routes do not allow, showing what the asker may ask instead.
func (a *applier) refuseRoute(allowed []string) {
	who := a.p.RoleOf(a.ev.Actor.Login)
	if who == "" {
		who = a.ev.Actor.Login
	}
	problem := fmt.Sprintf("%s may not ask %s here: this repository's routes do not allow it.", who, a.cmd.Target)
	try := "ask a maintainer to add the route to `.github/clarify.yml`, or proceed on a documented assumption with `/assume <decision>`."
	if len(allowed) > 0 {
		problem = fmt.Sprintf("%s may ask only %s here.", who, strings.Join(allowed, ", "))
		first := strings.TrimPrefix(allowed[0], "@")
		if a.p.ResolveTarget(first).Kind != TargetRole {
			first = "@" + first // only a role is written bare
		}
		try = fmt.Sprintf("`/clarify %s <question>`", first)
	}
	a.refuse(CodeOutOfScope, a.cmd.Line, problem, try)
}

// askRepeats escalates the open clarification an ask repeats, or bounces back to its asker,
// instead of opening another round of the same question; it reports whether it did.
func (a *applier) askRepeats(target Target) bool {
	login := a.ev.Actor.Login
	if c, ok := a.openDuplicate(login, target); ok {
		a.stuck(c, fmt.Sprintf("stuck: %s asked the same question again", login))
		return true
	}
	if c, ok := BouncedBack(a.l, a.p, login, target, a.cmd.Text); ok {
		a.stuck(a.mustFind(c.ID), fmt.Sprintf("stuck: %s bounced the question of %s back to its asker", login, c.ID))
		return true
	}
	return false
}

// open opens the clarification an ask asks, and posts its first round.
func (a *applier) open(target Target) {
	actor := a.ev.Actor
	a.l.Seq++
	blocking := !a.cmd.NonBlocking
	c := Clarification{
		ID:         FormatID(a.l.Issue, a.l.Seq),
		Asker:      Party{Login: actor.Login, Role: a.p.RoleOf(actor.Login)},
		Target:     target,
		Topic:      a.cmd.Topic,
		Type:       a.cmd.Type,
		Blocking:   blocking,
		Options:    a.cmd.Options,
		Fallback:   a.cmd.Fallback,
		Evidence:   a.cmd.Evidence,
		Status:     Pending,
		Round:      1,
		MaxRounds:  a.p.MaxRounds(blocking),
		CreatedAt:  a.at(),
		UpdatedAt:  a.now,
		StaleAfter: a.now.Add(a.p.SLA),
		Thread:     []Entry{a.entry(KindQuestion, 1, a.cmd.Text)},
		Ref:        a.cmd.Ref,
		State:      a.ev.State,
		Nonce:      a.ev.Nonce,
		Expect:     a.cmd.Expect,
		Needs:      a.cmd.Needs,
	}
	if c.Topic == "" {
		c.Topic = topicOf(a.cmd.Text)
	}
	a.l.Clarifications = append(a.l.Clarifications, c)
	a.postRound(c)
}
