package clarify

import (
	"reflect"
	"strings"
	"testing"
)

// outsiderBodies is every kind of comment a drive-by might leave, well-formed or not.
var outsiderBodies = []string{
	"/clarify", "/clarify stats", "/clarify stale", "/clarify show CLR-42-001", "/clarify show CLR-42-009",
	"/clarify @maria Another question?", "/clarify architect Which store?", "/clarify frob", "/clarify frob more words",
	"/clarify resolve CLR-42-001 per IP", "/clarify resolve per IP", "/clarify escalate CLR-42-001 nobody answers",
	"/clarify abandon CLR-42-001", "/clarify followup CLR-42-001 Why?", "/respond per IP", "/respond CLR-42-001 per IP",
	"/assume per IP", "/assume", "/respond", "/clarify @bad--name x", "/respond yes\n/respond no",
	"per IP", "CLR-42-001: per IP",
}

// outsiderLedger has a question to maria, one to the team octo/arch and one to bob, who may
// only read; dora asked the last while she still had write access.
func outsiderLedger(p Policy) Ledger {
	dora := Actor{Login: "dora", Permission: "write"}
	l, _ := play(p,
		step{agent, "/clarify @maria Per key or per IP?", ""},
		step{agent, "/clarify @octo/arch Which store?", ""},
		step{dora, "/clarify @bob Which region?", ""},
	)
	return l
}

func outsiderPolicy() Policy {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"reviewer": {"rita"}}
	return p
}

func TestOutsidersMakeTheAppWriteNothing(t *testing.T) {
	p := outsiderPolicy()
	base := outsiderLedger(p)
	outsiders := map[string]Actor{
		"readOnlyStranger":        stranger,
		"strangerWithTriage":      {Login: "tri", Permission: "triage"},
		"strangerWithNoAccess":    {Login: "nobody", Permission: "none"},
		"memberOfAnUnrelatedTeam": {Login: "tom", Permission: "read", Teams: map[string]bool{"octo/arch": false}},
	}
	for name, who := range outsiders {
		for _, body := range outsiderBodies {
			t.Run(name+"/"+body, func(t *testing.T) {
				r := Apply(base, Event{Kind: EventComment, CommentID: 900, Actor: who, Body: body, At: t0}, p, t0)
				if len(r.Effects) != 0 {
					t.Errorf("effects %+v, want none: a drive-by makes the app write nothing", r.Effects)
				}
				if r.Ignored == "" {
					t.Error("Ignored is empty; the log must say why nothing was done")
				}
				want := base.Clone()
				want.Cursor = 900
				if !reflect.DeepEqual(r.Ledger, want) {
					t.Error("a drive-by changed the ledger beyond its cursor")
				}
			})
		}
	}
}

func TestPartiesWithoutWriteAccessStillGetAnswers(t *testing.T) {
	p := outsiderPolicy()
	base := outsiderLedger(p)
	cases := map[string]Actor{
		"anotherBot":                  otherBot,
		"aMemberOfAConfiguredRole":    {Login: "rita", Permission: "read"},
		"theTargetOfAnOpenQuestion":   bob,
		"aMemberOfTheTargetTeam":      {Login: "carol", Permission: "read", Teams: map[string]bool{"octo/arch": true}},
		"anAskerWhoLostWriteAccess":   {Login: "dora", Permission: "read"},
		"aStrangerWithWriteAccess":    {Login: "wes", Permission: "write"},
		"aTargetInAnotherCaseOfLogin": {Login: "BOB", Permission: "read"},
	}
	for name, who := range cases {
		t.Run(name, func(t *testing.T) {
			r := Apply(base, Event{Kind: EventComment, CommentID: 900, Actor: who, Body: "/clarify stats", At: t0}, p, t0)
			if len(r.Effects) != 1 || r.Effects[0].Reply.Kind != ReplyStats {
				t.Errorf("effects %+v (%s), want the stats", r.Effects, r.Ignored)
			}
			r = Apply(base, Event{Kind: EventComment, CommentID: 900, Actor: who, Body: "/clarify frob", At: t0}, p, t0)
			if len(r.Effects) != 1 || r.Effects[0].Reply.Kind != ReplyRefusal || !strings.Contains(r.Effects[0].Reply.Problem, "frob") {
				t.Errorf("effects %+v, want a refusal that says what was wrong", r.Effects)
			}
		})
	}
}

func TestOutsiderStopsBeingOneOnceAddressed(t *testing.T) {
	p := DefaultPolicy()
	l, rs := play(p,
		step{stranger, "/clarify stats", ""},
		step{agent, "/clarify @drive-by Can you reproduce it?", ""},
		step{stranger, "Yes, on Linux.", ""},
		step{stranger, "/clarify stats", ""},
	)
	if len(rs[0].Effects) != 0 {
		t.Errorf("before anything was addressed to them: %+v", rs[0].Effects)
	}
	if c := l.Clarifications[0]; c.Status != Answered {
		t.Errorf("the addressed reader's reply left it %s", c.Status)
	}
	if len(rs[3].Effects) != 1 || rs[3].Effects[0].Reply.Kind != ReplyStats {
		t.Errorf("the person asked is a party now: %+v", rs[3].Effects)
	}
}
