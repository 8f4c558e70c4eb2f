package clarify

import (
	"fmt"
	"testing"
	"time"
)

func TestTopicsAndQuestionsMatch(t *testing.T) {
	cases := map[string]struct {
		a, b       string
		topic      bool
		nearlySame bool
	}{
		"caseSpacingAndPunctuationIgnored": {"Cache: per-user?", "  cache per USER ", true, true},
		"differentTopics":                  {"Cache scope", "Upload retries", false, false},
		"oneWordChangedInALongQuestion":    {"Should the rate limit apply per API key or per IP?", "Should the rate limit apply per API token or per IP?", false, true},
		"oneWordChangedInAShortQuestion":   {"Per key or IP?", "Per user or IP?", false, false},
		"twoWordsChanged":                  {"Should the rate limit apply per API key or per IP?", "Should the burst limit apply per API token or per IP?", false, false},
		"emptyMatchesNothing":              {"", "", true, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := NormalizeTopic(tc.a) == NormalizeTopic(tc.b); got != tc.topic {
				t.Errorf("same topic = %v, want %v", got, tc.topic)
			}
			if got := NearIdentical(tc.a, tc.b); got != tc.nearlySame {
				t.Errorf("NearIdentical = %v, want %v", got, tc.nearlySame)
			}
		})
	}
}

func TestMemoryRecordsSupersedesAndOffers(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var m Memory
	first := Decision{ID: "CLR-1-001", Issue: 1, Topic: "Cache scope", Question: "Per user or global?", Decision: "Per user.", By: "maria", At: at}
	if !m.Record(first) || m.Record(first) {
		t.Fatal("want the first Record to change the memory and the second (a retry) not to")
	}
	same := Decision{ID: "CLR-2-001", Issue: 2, Topic: "cache scope!", Decision: "per user", By: "ana", At: at.Add(time.Hour)}
	m.Record(same)
	if !m.Decisions[0].InForce() {
		t.Error("the same decision again superseded the first")
	}
	other := Decision{ID: "CLR-3-001", Issue: 3, Topic: "CACHE SCOPE", Decision: "Global.", By: "ana", At: at.Add(2 * time.Hour)}
	m.Record(other)
	if m.Decisions[0].SupersededBy != "CLR-3-001" || m.Decisions[1].SupersededBy != "CLR-3-001" {
		t.Errorf("a different decision on the topic left earlier ones in force: %+v", m.Decisions)
	}
	if d, ok := m.Offer("Cache-Scope", "anything"); !ok || d.ID != "CLR-3-001" {
		t.Errorf("Offer = %+v, %v; want the decision in force", d, ok)
	}
	if _, ok := m.Offer("Retries", "How often to retry?"); ok {
		t.Error("a question on another topic was offered a decision")
	}
	if got := m.InForceNewestFirst(); len(got) != 1 || got[0].ID != "CLR-3-001" {
		t.Errorf("InForceNewestFirst = %+v", got)
	}
}

func TestMemoryStaysBounded(t *testing.T) {
	var m Memory
	for i := 0; i < MaxRemembered+10; i++ {
		m.Record(Decision{ID: fmt.Sprintf("CLR-%d-001", i), Topic: fmt.Sprintf("topic %d", i), Decision: "x"})
	}
	if len(m.Decisions) != MaxRemembered || m.Decisions[0].ID != "CLR-10-001" {
		t.Errorf("%d decisions kept, the oldest %s; want %d, the oldest dropped first", len(m.Decisions), m.Decisions[0].ID, MaxRemembered)
	}
}

func TestOnlyDecisionsPeopleMadeAreSettled(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	open := Clarification{ID: "CLR-7-001", Topic: "Cache", Status: Pending, Thread: []Entry{{Kind: KindQuestion, Text: "Per user?"}}}
	byPerson := open
	byPerson.Status, byPerson.Resolution, byPerson.ResolvedAt = Resolved, "Per user.", at
	byPerson.Thread = append(byPerson.Thread, Entry{Kind: KindResolution, Author: "maria", CommentID: 9, Text: "Per user."})
	byTimeout := open
	byTimeout.ID, byTimeout.Status, byTimeout.Resolution = "CLR-7-002", Resolved, "per user"
	byTimeout.Thread = append(byTimeout.Thread, Entry{Kind: KindResolution, Text: timeoutPrefix + "per user"})
	before := Ledger{Issue: 7, Clarifications: []Clarification{open}}
	after := Ledger{Issue: 7, Clarifications: []Clarification{byPerson, byTimeout}}
	maintainers := func(login string) (Actor, error) { return Actor{Login: login, Permission: "write"}, nil }
	got, _ := SettledByPeople(before, after, DefaultPolicy(), maintainers)
	if len(got) != 1 || got[0].ID != "CLR-7-001" || got[0].By != "maria" || got[0].Question != "Per user?" || got[0].CommentID != 9 {
		t.Errorf("SettledByPeople = %+v, want only maria's decision", got)
	}
	if again, _ := SettledByPeople(after, after, DefaultPolicy(), maintainers); len(again) != 0 {
		t.Errorf("a clarification settled before the run counted again: %+v", again)
	}
}

// TestARolesPersonStandsWithoutALookUp: a person the configuration lists in a role speaks
// for the repository whatever GitHub would say of their permission, so settling their
// question costs no permission request; an app's login in a role is still looked up, and
// does not stand.
func TestARolesPersonStandsWithoutALookUp(t *testing.T) {
	p := DefaultPolicy()
	p.Roles = map[string][]string{"lead": {"maria", "helper[bot]"}}
	settled := func(by string) Ledger {
		c := Clarification{ID: "CLR-7-001", Topic: "Cache", Status: Resolved, Resolution: "Per user."}
		c.Thread = []Entry{{Kind: KindQuestion, Text: "Per user?"}, {Kind: KindResolution, Author: by, CommentID: 9, Text: "Per user."}}
		return Ledger{Issue: 7, Clarifications: []Clarification{c}}
	}
	var asked []string
	who := func(login string) (Actor, error) {
		asked = append(asked, login)
		return Actor{Login: login, Bot: IsAppLogin(login), Permission: "read"}, nil
	}
	got, err := SettledByPeople(Ledger{Issue: 7}, settled("Maria"), p, who)
	if err != nil || len(got) != 1 || got[0].By != "Maria" || len(asked) != 0 {
		t.Errorf("a lead's resolution: %+v, %v, looked up %v; want remembered with no look-up", got, err, asked)
	}
	got, _ = SettledByPeople(Ledger{Issue: 7}, settled("helper[bot]"), p, who)
	if len(got) != 0 || len(asked) != 1 {
		t.Errorf("an app in a role: %+v, looked up %v; want looked up and not remembered", got, asked)
	}
}

// TestARepositorysOwnDecisionWinsOverTheInheritedOne: OfferAcross takes a topic match
// before a near-identical question wherever it was made, and on the same footing the
// repository's own decision; an inherited one says where it was made.
func TestARepositorysOwnDecisionWinsOverTheInheritedOne(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	q := "Should the public API be rate limited per key or per client address?"
	org := Memory{Decisions: []Decision{
		{ID: "CLR-3-001", Issue: 3, Topic: "Cache scope", Question: "Which cache scope?", Decision: "Per user.", By: "lead", At: at},
		{ID: "CLR-4-001", Issue: 4, Topic: "Rate limits", Question: q, Decision: "Per key.", By: "lead", At: at},
		{ID: "CLR-5-001", Issue: 5, Topic: "Old", Decision: "Gone.", By: "lead", At: at, SupersededBy: "CLR-6-001"},
	}}
	own := Memory{Decisions: []Decision{
		{ID: "CLR-42-001", Issue: 42, Topic: "cache-scope", Question: "Cache?", Decision: "Global.", By: "maria", At: at.Add(-time.Hour)},
		{ID: "CLR-43-001", Issue: 43, Topic: "Limits", Question: q, Decision: "Per address.", By: "maria", At: at},
	}}
	cases := map[string]struct {
		own             Memory
		topic, question string
		id, repo        string
	}{
		"theOwnDecisionOnTheTopicWins":             {own, "Cache scope", "anything", "CLR-42-001", ""},
		"anInheritedDecisionFillsATopicNotDecided": {Memory{}, "Cache scope", "anything", "CLR-3-001", "octo/.github"},
		"anInheritedTopicBeatsAnOwnTwinQuestion":   {own, "Rate limits", q, "CLR-4-001", "octo/.github"},
		"theOwnTwinQuestionWinsWithoutATopic":      {own, "", q, "CLR-43-001", ""},
		"anInheritedTwinQuestionWithoutATopic":     {Memory{}, "", q, "CLR-4-001", "octo/.github"},
		"aSupersededInheritedOneIsNeverOffered":    {Memory{}, "Old", "anything", "", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, ok := OfferAcross(tc.own, org, "octo/.github", tc.topic, tc.question)
			if ok != (tc.id != "") || d.ID != tc.id || d.Repo != tc.repo {
				t.Errorf("OfferAcross = %s from %q (%v), want %s from %q", d.ID, d.Repo, ok, tc.id, tc.repo)
			}
		})
	}
	if d, ok := own.Offer("Cache scope", ""); !ok || d.ID != "CLR-42-001" || d.Repo != "" {
		t.Errorf("Memory.Offer = %+v, %v: want the own decision, with no repository named", d, ok)
	}
}

// TestAnInheritedPrecedentSettlesNamingItsSource: the resolution says which repository's
// decision settled the question.
func TestAnInheritedPrecedentSettlesNamingItsSource(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	c := Clarification{ID: "CLR-60-001", Status: Pending, Round: 1, Topic: "Cache scope",
		Precedent: &Precedent{From: "CLR-3-001", Repo: "octo/.github", Decision: "Per user.", Settles: now}}
	l, effects := SettleFromPrecedents(Ledger{Issue: 60, Clarifications: []Clarification{c}}, now)
	got := l.Clarifications[0]
	if got.Status != Resolved || len(effects) != 1 {
		t.Fatalf("the due precedent left %s with %v", got.Status, effects)
	}
	if e := got.Thread[len(got.Thread)-1]; e.Text != "precedent: Per user. (from CLR-3-001 in octo/.github)" {
		t.Errorf("the resolution reads %q, want it to name octo/.github", e.Text)
	}
}
