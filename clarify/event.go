package clarify

import (
	"strings"
	"time"
)

// EventKind names what happened in the issue.
type EventKind string

// The events Apply understands.
const (
	// EventComment is a comment, as posted or, when first read from the comment list, as
	// edited since (Event.Edited): an edit of a comment already applied is never input.
	EventComment EventKind = "comment"
	// EventClosed is the issue being closed: whatever is open is abandoned.
	EventClosed EventKind = "closed"
	// EventReopened is the issue being reopened: nothing abandoned is revived.
	EventReopened EventKind = "reopened"
)

// Actor is who caused an event, with what the handlers looked up about them.
type Actor struct {
	Login string
	// Bot is true for bot accounts (user type "Bot"), which may ask but whose plain
	// replies are never taken as answers.
	Bot bool
	// Self is true for the app's own account: its comments are never input.
	Self bool
	// App is the slug of the GitHub App the comment was made through on the login's behalf
	// (performed_via_github_app), "" when none: for a quorum it is the App's (needs.go).
	App string
	// Permission is the repository permission GitHub reports: admin, maintain, write, triage,
	// read or none.
	Permission string
	// Teams holds the teams ("org/team") the actor is a member of, of those the ledger's open
	// clarifications are addressed to (Policy.TargetTeams).
	Teams map[string]bool
}

// CanWrite reports whether the actor has write access (write, maintain or admin).
func (a Actor) CanWrite() bool {
	switch a.Permission {
	case "write", "maintain", "admin":
		return true
	}
	return false
}

// Event is one thing that happened in an issue, as Apply sees it.
type Event struct {
	Kind EventKind
	// CommentID is the comment's id for EventComment; the ledger's cursor moves to it.
	CommentID int64
	Actor     Actor
	Body      string
	// At is when the event happened according to GitHub.
	At time.Time
	// IssueClosed is whether the issue is closed, as the event's payload says.
	IssueClosed bool
	// Edited says the comment was edited after it was posted, as the comment list shows it
	// when the comment is first read from there (a new comment's payload never is). An edited
	// comment runs no command, since the command would not be what the thread showed when it
	// was posted; a plain reply in it still answers, marked as edited.
	Edited bool
	// State is the asker's opaque state that came with an ask beside its comment (a
	// dispatch's signed copy carries it; a comment cannot).
	State string
	// Nonce is the asker's nonce that came with a dispatched ask (clarify/asker.go), from
	// its signed copy.
	Nonce string
	// Mirrored says the comment is the app's mirror of a dispatched command, which
	// @mentioned only MirrorMentions of Body (the sender is Actor).
	Mirrored bool
}

// addressedTo reports whether c is addressed to the actor: its login, a role that lists the
// actor or one of the actor's teams, or one of the actor's teams.
func (p Policy) addressedTo(c Clarification, a Actor) bool {
	match := func(member string) bool {
		member = strings.TrimPrefix(member, "@")
		if strings.Contains(member, "/") {
			return a.Teams[member]
		}
		return strings.EqualFold(member, a.Login)
	}
	switch c.Target.Kind {
	case TargetLogin, TargetTeam:
		return match(c.Target.Name)
	case TargetRole:
		for _, m := range p.roleMembers(c.Target.Name) {
			if match(m) {
				return true
			}
		}
	}
	return false
}

// knownByLogin reports whether login takes part in l by its login alone: it asked one of the
// clarifications, is addressed by login by an open one, or is listed in a configured role.
// Such a commenter is never a drive-by (see applier.outsider), whatever GitHub says of them.
func knownByLogin(l Ledger, p Policy, login string) bool {
	if p.RoleOf(login) != "" {
		return true
	}
	for _, c := range l.Clarifications {
		if strings.EqualFold(c.Asker.Login, login) ||
			(c.Status.Open() && c.Target.Kind == TargetLogin && strings.EqualFold(c.Target.Name, login)) {
			return true
		}
	}
	return false
}

// NeedsPermission reports whether the answer to "has login write access?" can change what
// Apply does with this comment, so the handlers ask GitHub only then. It errs towards
// asking: a wrong "no" would let a lookup be skipped that mattered.
func NeedsPermission(l Ledger, p Policy, login string, bot bool, body string) bool {
	cmd, err := Parse(body)
	if !bot && !knownByLogin(l, p, login) && (err != nil || cmd.Kind != CmdNone) {
		// Whether a drive-by's command is answered at all depends on write access.
		return true
	}
	if err != nil {
		return false // a refusal, whoever typed it
	}
	asker := func(id string) bool {
		c, ok := l.Find(id)
		return ok && strings.EqualFold(c.Asker.Login, login)
	}
	switch cmd.Kind {
	case CmdNone:
		// A plain reply answers only what is addressed to its author, unless it names an id.
		return cmd.ID != "" && !bot
	case CmdAsk, CmdAssume:
		return !bot
	case CmdFollowup, CmdAbandon, CmdList, CmdShow, CmdStale, CmdStats:
		return false // the asker's alone, or open to all
	case CmdResolve, CmdEscalate:
		return cmd.ID == "" || !asker(cmd.ID)
	}
	return true
}

// NeedsTeams reports whether login's membership of the teams the open clarifications are
// addressed to (Policy.TargetTeams) can change what Apply does with this comment, so the
// handlers look memberships up only then. Like NeedsPermission it errs towards asking.
func NeedsTeams(l Ledger, p Policy, login string, bot bool, body string) bool {
	if len(p.TargetTeams(l)) == 0 {
		return false
	}
	cmd, err := Parse(body)
	// A team member addressed by an open clarification is no drive-by: whether a command of
	// someone not known by login is answered may hang on their teams.
	unknown := !bot && !knownByLogin(l, p, login)
	if err != nil {
		return unknown
	}
	switch cmd.Kind {
	case CmdNone:
		return !bot // a plain reply answers what is addressed to its author
	case CmdRespond:
		return true
	case CmdEscalate:
		// The target's people may escalate it; its asker may anyway.
		c, ok := l.Find(cmd.ID)
		return unknown || (ok && !strings.EqualFold(c.Asker.Login, login))
	}
	return unknown
}
