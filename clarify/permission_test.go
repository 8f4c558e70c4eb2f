package clarify

import (
	"reflect"
	"testing"
)

// lookupPolicy has roles of logins and of a team, so that every way of being addressed is
// in play.
func lookupPolicy() Policy {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"architect": {"arch", "@octo/arch"}, "reviewer": {"rita"}, "engineer": {"coder-agent"}}
	return p
}

// lookupLedger has open questions to a login, a team, a role with a team in it, and a reader;
// one of them answered.
func lookupLedger(p Policy) Ledger {
	l, _ := play(p,
		step{agent, "/clarify @maria Per key or per IP?", ""},
		step{agent, "/clarify @bob Which cache?", ""},
		step{bob, "Redis.", ""},
		step{agent, "/clarify @octo/platform Which region?", ""},
		step{agent, "/clarify architect Which store?", ""},
	)
	return l
}

// lookupBodies covers every command, well-formed or not, and plain replies with and
// without an id.
var lookupBodies = []string{
	"Per key.", "CLR-42-001: per key", "CLR-42-003 eu-west-1", "/respond per key", "/respond CLR-42-002 Memcached",
	"/respond CLR-42-004 Postgres", "/clarify @maria Another?", "/clarify architect Another?", "/clarify Which one?",
	"/clarify followup CLR-42-002 Which version?", "/clarify resolve CLR-42-001 per key", "/clarify resolve per key",
	"/clarify escalate CLR-42-001 stuck", "/clarify escalate CLR-42-003", "/clarify escalate CLR-42-004 stuck",
	"/clarify abandon CLR-42-002", "/clarify", "/clarify show CLR-42-001", "/clarify stale", "/clarify stats",
	"/assume UTC", "/clarify frob", "/respond",
}

// lookupActors are the authors: the asking agent, the target with write access, a reader
// who is addressed, a reader in a role, a member of a role's team, a member of a target
// team, a drive-by, another bot.
var lookupActors = []Actor{
	agent, maria, bob,
	{Login: "rita"}, {Login: "arch"}, {Login: "carol"}, {Login: "pat"}, stranger,
	{Login: "lint-bot", Bot: true},
}

// applyEach applies body by who, unedited and edited, to base once per variant of who.
func applyEach(base Ledger, p Policy, who Actor, body string, variants map[string]func(Actor) Actor) map[string][]Result {
	out := map[string][]Result{}
	for name, vary := range variants {
		for _, edited := range []bool{false, true} {
			ev := Event{Kind: EventComment, CommentID: 900, Actor: vary(who), Body: body, At: t0, Edited: edited}
			out[name] = append(out[name], Apply(base, ev, p, t0))
		}
	}
	return out
}

// sameOutcome reports whether every variant left the same ledger and asked for the same effects.
func sameOutcome(results map[string][]Result) bool {
	var first []Result
	for _, rs := range results {
		if first == nil {
			first = rs
			continue
		}
		for i := range rs {
			if !reflect.DeepEqual(rs[i].Ledger, first[i].Ledger) || !reflect.DeepEqual(rs[i].Effects, first[i].Effects) {
				return false
			}
		}
	}
	return true
}

// TestNeedsPermissionSkipsOnlyLookupsThatCannotMatter: wherever NeedsPermission says no,
// Apply gives the same result whether the author has write access or not, whatever their
// teams and whether the comment was edited.
func TestNeedsPermissionSkipsOnlyLookupsThatCannotMatter(t *testing.T) {
	p := lookupPolicy()
	base := lookupLedger(p)
	skipped := 0
	for _, who := range lookupActors {
		for _, body := range lookupBodies {
			if NeedsPermission(base, p, who.Login, who.Bot, body) {
				continue
			}
			skipped++
			for _, teams := range []map[string]bool{nil, allTeams(base, p)} {
				variants := map[string]func(Actor) Actor{}
				for _, perm := range []string{"", "none", "read", "triage", "write", "admin"} {
					variants[perm] = func(a Actor) Actor { a.Permission, a.Teams = perm, teams; return a }
				}
				if !sameOutcome(applyEach(base, p, who, body, variants)) {
					t.Errorf("%s (teams %v): %q: skipping the permission lookup changes the outcome", who.Login, teams, body)
				}
			}
		}
	}
	if skipped < len(lookupActors)*len(lookupBodies)/3 {
		t.Errorf("only %d lookups skipped: NeedsPermission saves little", skipped)
	}
}

// TestNeedsTeamsSkipsOnlyLookupsThatCannotMatter: wherever NeedsTeams says no, Apply gives
// the same result whether the author is a member of every team the open clarifications are
// addressed to or of none, whatever their permission and whether the comment was edited.
func TestNeedsTeamsSkipsOnlyLookupsThatCannotMatter(t *testing.T) {
	p := lookupPolicy()
	base := lookupLedger(p)
	skipped := 0
	for _, who := range lookupActors {
		for _, body := range lookupBodies {
			if NeedsTeams(base, p, who.Login, who.Bot, body) {
				continue
			}
			skipped++
			for _, perm := range []string{"read", "write"} {
				variants := map[string]func(Actor) Actor{
					"none":    func(a Actor) Actor { a.Permission, a.Teams = perm, nil; return a },
					"all":     func(a Actor) Actor { a.Permission, a.Teams = perm, allTeams(base, p); return a },
					"outside": func(a Actor) Actor { a.Permission, a.Teams = perm, map[string]bool{"octo/arch": false}; return a },
				}
				if !sameOutcome(applyEach(base, p, who, body, variants)) {
					t.Errorf("%s (%s): %q: skipping the team lookup changes the outcome", who.Login, perm, body)
				}
			}
		}
	}
	if skipped < len(lookupActors)*len(lookupBodies)/3 {
		t.Errorf("only %d lookups skipped: NeedsTeams saves little", skipped)
	}
}

func TestNeedsTeamsIsFalseWhenNoOpenQuestionNamesATeam(t *testing.T) {
	p := lookupPolicy()
	l, _ := play(p, step{agent, "/clarify @maria Per key or per IP?", ""}, step{agent, "/clarify @octo/platform Which region?", ""},
		step{agent, "/clarify resolve CLR-42-002 eu-west-1", ""})
	for _, who := range lookupActors {
		for _, body := range lookupBodies {
			if NeedsTeams(l, p, who.Login, who.Bot, body) {
				t.Errorf("%s: %q: no open clarification is addressed to a team, yet a look-up is asked for", who.Login, body)
			}
		}
	}
}

// allTeams makes the actor a member of every team the open clarifications are addressed to.
func allTeams(l Ledger, p Policy) map[string]bool {
	out := map[string]bool{}
	for _, team := range p.TargetTeams(l) {
		out[team] = true
	}
	return out
}
