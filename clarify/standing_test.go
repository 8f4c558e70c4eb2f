package clarify

import "testing"

func TestStandingIsAPersonsWithWriteAccessOrARoles(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"architect": {"arch", "@octo/arch"}, "engineer": {"coder-agent"}}
	for name, tc := range map[string]struct {
		actor         Actor
		standing, may bool
	}{
		"maintainer":                    {Actor{Login: "maria", Permission: "admin"}, true, true},
		"writer":                        {Actor{Login: "wri", Permission: "write"}, true, true},
		"roleMemberWithoutWrite":        {Actor{Login: "arch", Permission: "read"}, true, false},
		"reader":                        {Actor{Login: "reader", Permission: "read"}, false, false},
		"triager":                       {Actor{Login: "tri", Permission: "triage"}, false, false},
		"formerCollaborator":            {Actor{Login: "carol", Permission: "none"}, false, false},
		"botWithoutWrite":               {Actor{Login: "rogue[bot]", Bot: true, Permission: "read"}, false, false},
		"botInARole":                    {Actor{Login: "coder-agent", Bot: true}, false, false},
		"botWithWrite":                  {Actor{Login: "deploy[bot]", Bot: true, Permission: "write"}, false, false},
		"theAppsOwnAccount":             {Actor{Login: "clarify[bot]", Self: true, Permission: "admin"}, false, false},
		"teamMemberOfARoleWithoutWrite": {Actor{Login: "pat", Teams: map[string]bool{"octo/arch": true}}, false, false},
	} {
		t.Run(name, func(t *testing.T) {
			if got := p.HasStanding(tc.actor); got != tc.standing {
				t.Errorf("HasStanding = %v, want %v", got, tc.standing)
			}
			if got := MayChangeDecisions(tc.actor); got != tc.may {
				t.Errorf("MayChangeDecisions = %v, want %v", got, tc.may)
			}
		})
	}
}
