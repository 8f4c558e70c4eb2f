package clarify

import (
	"slices"
	"strings"
	"time"
)

// Defaults of the protocol (docs/config.md), all overridable per repository.
const (
	DefaultMaxRoundsBlocking    = 5
	DefaultMaxRoundsNonBlocking = 6
	DefaultSLA                  = 30 * time.Minute
)

// DefaultPriority is the default order of roles, highest first, used to break deadlocks.
var DefaultPriority = []string{"product-manager", "architect", "engineer"}

// Policy is what a repository's configuration says about the protocol.
type Policy struct {
	MaxRoundsBlocking    int
	MaxRoundsNonBlocking int
	SLA                  time.Duration
	// Roles maps a role name to its members: logins, and teams written "@org/team".
	Roles    map[string][]string
	Priority []string
	// EscalationMention lists the logins and teams an escalation @mentions.
	EscalationMention []string
	// MaxPerIssue caps the clarifications of one issue; 0 means no cap.
	MaxPerIssue int
	// Routes maps an asker's role to the targets (roles, logins, teams) it may ask; a nil
	// map lets anyone ask anyone.
	Routes map[string][]string
	// AnswerFrom says who may answer: AnswerTargetsAndWrite (default) or AnswerTargets.
	AnswerFrom string
	// Require lists the fields an ask must carry: "type", "options", "fallback", "topic".
	Require []string
}

// Who may answer a clarification (Policy.AnswerFrom).
const (
	AnswerTargetsAndWrite = "targets_and_write"
	AnswerTargets         = "targets"
)

// DefaultPolicy returns the protocol's defaults.
func DefaultPolicy() Policy {
	return Policy{
		MaxRoundsBlocking:    DefaultMaxRoundsBlocking,
		MaxRoundsNonBlocking: DefaultMaxRoundsNonBlocking,
		SLA:                  DefaultSLA,
		Priority:             append([]string(nil), DefaultPriority...),
		AnswerFrom:           AnswerTargetsAndWrite,
	}
}

// RoleOf returns the first configured role (in priority order, then by name) listing login, or "".
func (p Policy) RoleOf(login string) string {
	for _, role := range p.roleNames() {
		for _, m := range p.Roles[role] {
			if strings.EqualFold(strings.TrimPrefix(m, "@"), login) {
				return role
			}
		}
	}
	return ""
}

// roleNames lists the configured roles: those in Priority first, then the rest by name.
func (p Policy) roleNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range p.Priority {
		if _, ok := p.Roles[r]; ok && !seen[r] {
			names = append(names, r)
			seen[r] = true
		}
	}
	var rest []string
	for r := range p.Roles {
		if !seen[r] {
			rest = append(rest, r)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// ResolveTarget turns a target as typed (no @) into a role, a team or a login. A role matches
// in any case, as logins do, and is stored under its configured name: "@Architect" must reach
// the architects, not a stranger whose login happens to be "Architect".
func (p Policy) ResolveTarget(name string) Target {
	if role, ok := p.roleNamed(name); ok {
		return Target{Kind: TargetRole, Name: role}
	}
	if strings.Contains(name, "/") {
		return Target{Kind: TargetTeam, Name: name}
	}
	return Target{Kind: TargetLogin, Name: name}
}

// roleNamed returns the configured role called name in any case; an exact match wins, so a
// configuration with two roles differing only in case still reaches each.
func (p Policy) roleNamed(name string) (string, bool) {
	if _, ok := p.Roles[name]; ok {
		return name, true
	}
	for _, role := range p.roleNames() {
		if strings.EqualFold(role, name) {
			return role, true
		}
	}
	return "", false
}

// roleMembers lists the members of a role, found in any case (a ledger may hold a role under
// a spelling the configuration has since changed the case of).
func (p Policy) roleMembers(role string) []string {
	if name, ok := p.roleNamed(role); ok {
		return p.Roles[name]
	}
	return nil
}

// people lists the handles a target reaches, without "@": its login, its "org/team", or the
// members of its role.
func (p Policy) people(t Target) []string {
	if t.Kind != TargetRole {
		return []string{strings.TrimPrefix(t.Name, "@")}
	}
	var out []string
	for _, m := range p.roleMembers(t.Name) {
		out = append(out, strings.TrimPrefix(m, "@"))
	}
	return out
}

// MaxRounds returns the round limit for a blocking or non-blocking clarification.
func (p Policy) MaxRounds(blocking bool) int {
	if blocking {
		return p.MaxRoundsBlocking
	}
	return p.MaxRoundsNonBlocking
}

// TargetTeams lists the teams ("org/team") that the open clarifications of l are addressed
// to, directly or through a role, so the caller can look up an actor's membership once.
func (p Policy) TargetTeams(l Ledger) []string {
	seen := map[string]bool{}
	var teams []string
	add := func(t string) {
		t = strings.TrimPrefix(t, "@")
		if strings.Contains(t, "/") && !seen[t] {
			seen[t] = true
			teams = append(teams, t)
		}
	}
	for _, c := range l.Clarifications {
		if !c.Status.Open() {
			continue
		}
		switch c.Target.Kind {
		case TargetTeam:
			add(c.Target.Name)
		case TargetRole:
			for _, m := range p.roleMembers(c.Target.Name) {
				add(m)
			}
		}
	}
	slices.Sort(teams)
	return teams
}

// routeAllows reports whether the asker may address target under Routes, and lists what
// the asker may address. Without routes anyone may ask anyone.
func (p Policy) routeAllows(askerLogin string, target Target) (bool, []string) {
	if p.Routes == nil {
		return true, nil
	}
	allowed, ok := p.Routes[p.RoleOf(askerLogin)]
	if !ok {
		allowed, ok = p.Routes[askerLogin]
	}
	if !ok {
		return false, nil
	}
	for _, a := range allowed {
		if strings.EqualFold(strings.TrimPrefix(a, "@"), strings.TrimPrefix(target.Name, "@")) {
			return true, allowed
		}
	}
	return false, allowed
}

// missingFields lists the required fields (Require) an ask leaves out.
func (p Policy) missingFields(cmd Command) []string {
	var missing []string
	for _, f := range p.Require {
		switch {
		case f == "type" && cmd.Type == "",
			f == "options" && len(cmd.Options) == 0,
			f == "fallback" && cmd.Fallback == "",
			f == "topic" && cmd.Topic == "":
			missing = append(missing, f)
		}
	}
	return missing
}
