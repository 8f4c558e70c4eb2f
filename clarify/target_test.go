package clarify

import (
	"strings"
	"testing"
	"time"
)

// rolePolicy has an architect role of one member, and routes that let an engineer ask only
// the architects (issue 12: the route check already ignored case).
func rolePolicy() Policy {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"architect": {"arch"}, "engineer": {"coder-agent"}}
	p.Routes = map[string][]string{"engineer": {"architect"}}
	return p
}

// archMember is the architect role's one member; namesake owns the login "architect" and
// has nothing to do with the role.
var (
	archMember = Actor{Login: "arch", Permission: "read"}
	namesake   = Actor{Login: "architect", Permission: "read"}
)

func TestRoleNamesMatchInAnyCase(t *testing.T) {
	p := rolePolicy()
	for name, ask := range map[string]string{
		"atRoleInCapitals":     "/clarify @Architect Which store?",
		"atRoleInUpperCase":    "/clarify @ARCHITECT Which store?",
		"bareRoleInCapitals":   "/clarify Architect Which store?",
		"bareRoleInLowerCase":  "/clarify architect Which store?",
		"atRoleAsConfigured":   "/clarify @architect Which store?",
		"bareRoleWithAColon":   "/clarify ARCHITECT: Which store?",
		"roleAfterTheFlagBare": "/clarify --non-blocking Architect Which store?",
	} {
		t.Run(name, func(t *testing.T) {
			l, rs := play(p, step{agent, ask, ""})
			if len(l.Clarifications) != 1 {
				t.Fatalf("not asked: %+v", rs[0])
			}
			if got := l.Clarifications[0].Target; got != (Target{TargetRole, "architect"}) {
				t.Fatalf("stored as %+v, want the role under its configured name", got)
			}
			round := rs[0].Effects[0]
			if round.Kind != EffectPostRound || strings.Join(round.Mention, " ") != "arch" {
				t.Errorf("round effect %+v, want it to mention arch, the role's member", round)
			}

			// The namesake account is no architect: its reply answers nothing, whatever
			// its permission, and the app never mentions it.
			for _, perm := range []string{"read", "write"} {
				who := namesake
				who.Permission = perm
				r := Apply(l, Event{Kind: EventComment, CommentID: 500, Actor: who, Body: "Use Postgres.", At: t0}, p, t0)
				if c := r.Ledger.Clarifications[0]; c.Status != Pending || len(r.Effects) != 0 {
					t.Errorf("the namesake (%s) moved it to %s with %+v", perm, c.Status, r.Effects)
				}
			}
			ping := Tick(l, p, t0.Add(p.SLA+time.Minute))
			for _, e := range append(rs[0].Effects, ping.Effects...) {
				for _, m := range e.Mention {
					if strings.EqualFold(m, "architect") {
						t.Errorf("%s effect mentions the namesake: %+v", e.Kind, e)
					}
				}
			}
			if len(ping.Effects) != 1 || strings.Join(ping.Effects[0].Mention, " ") != "arch" {
				t.Errorf("stale ping %+v, want it to mention arch only", ping.Effects)
			}

			r := Apply(l, Event{Kind: EventComment, CommentID: 501, Actor: archMember, Body: "Use Postgres.", At: t0}, p, t0)
			if c := r.Ledger.Clarifications[0]; c.Status != Answered {
				t.Errorf("arch's reply left it %s, want answered", c.Status)
			}
		})
	}
}

func TestBareWordsAddressOnlyRoles(t *testing.T) {
	roles := DefaultPolicy()
	roles.Roles = map[string][]string{"architect": {"arch"}, "engineer": {"coder-agent"}}
	none := DefaultPolicy()
	cases := map[string]struct {
		policy     Policy
		body       string
		wantTarget Target   // zero: refused
		problem    string   // with a refusal, what Problem says
		try        []string // with a refusal, what Try says
	}{
		"bareRoleAddressesTheRole": {policy: roles, body: "/clarify architect Which store?",
			wantTarget: Target{TargetRole, "architect"}},
		"atRoleStillAddressesTheRole": {policy: roles, body: "/clarify @architect Which store?",
			wantTarget: Target{TargetRole, "architect"}},
		"atLoginStillAddressesThePerson": {policy: roles, body: "/clarify @bob Which store?",
			wantTarget: Target{TargetLogin, "bob"}},
		"bareLoginIsNeverTakenForThePerson": {policy: roles, body: "/clarify maria Which store?",
			problem: "`maria` is not one of this repository's roles (`architect`, `engineer`), so it cannot be the target",
			try:     []string{"`/clarify architect <question>`", "`/clarify @maria <question>`"}},
		"questionWithoutATargetSaysHowToNameOne": {policy: roles, body: "/clarify Which database should the cache use?",
			problem: "`Which` is not one of this repository's roles (`architect`, `engineer`), so it cannot be the target; an ask names its target right after `/clarify`.",
			try:     []string{"`/clarify architect <question>` for a role", "`/clarify @alice <question>` for a person", "`/clarify show CLR-42-001`"}},
		"withoutRolesABareWordSaysThereAreNone": {policy: none, body: "/clarify architect Which store?",
			problem: "`architect` is not a role here: this repository configures none",
			try:     []string{"`/clarify @architect <question>`"}},
		"mistypedSubcommandSuggestsTheNearestOne": {policy: roles, body: "/clarify resovle Use UTC",
			problem: "`resovle` is not a `/clarify` subcommand. Did you mean `resolve`?",
			try:     []string{"the subcommands are `list`", "`/clarify @alice <question>`"}},
		"unknownWordBeforeAnIDIsAnUnknownSubcommand": {policy: roles, body: "/clarify frob CLR-42-001",
			problem: "`frob` is not a `/clarify` subcommand.",
			try:     []string{"`followup`, `resolve`", "`/clarify architect <question>`"}},
		"aRoleNamedLikeASubcommandIsStillARole": {
			policy: func() Policy { p := DefaultPolicy(); p.Roles = map[string][]string{"sales": {"sam"}}; return p }(),
			body:   "/clarify sales Which discount?", wantTarget: Target{TargetRole, "sales"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, rs := play(tc.policy, step{maria, tc.body, ""})
			if tc.wantTarget != (Target{}) {
				if len(l.Clarifications) != 1 || l.Clarifications[0].Target != tc.wantTarget {
					t.Fatalf("clarifications %+v (%s), want one to %+v", l.Clarifications, rs[0].Ignored, tc.wantTarget)
				}
				return
			}
			if len(l.Clarifications) != 0 {
				t.Fatalf("asked %+v, want a refusal", l.Clarifications[0].Target)
			}
			if len(rs[0].Effects) != 1 || rs[0].Effects[0].Reply.Kind != ReplyRefusal {
				t.Fatalf("effects %+v, want one refusal", rs[0].Effects)
			}
			rep := rs[0].Effects[0].Reply
			if !strings.Contains(rep.Problem, tc.problem) {
				t.Errorf("Problem = %q, want it to contain %q", rep.Problem, tc.problem)
			}
			for _, want := range tc.try {
				if !strings.Contains(rep.Try, want) {
					t.Errorf("Try = %q, want it to contain %q", rep.Try, want)
				}
			}
			if rep.Quote != strings.TrimSpace(tc.body) {
				t.Errorf("Quote = %q, want the command line", rep.Quote)
			}
		})
	}
}

func TestRouteRefusalSuggestsARoleWithoutAt(t *testing.T) {
	_, rs := play(rolePolicy(), step{agent, "/clarify @maria Which store?", ""})
	if len(rs[0].Effects) != 1 {
		t.Fatalf("effects %+v, want one refusal", rs[0].Effects)
	}
	if rep := rs[0].Effects[0].Reply; rep.Try != "`/clarify architect <question>`" {
		t.Errorf("Try = %q, want the role written bare", rep.Try)
	}
}
